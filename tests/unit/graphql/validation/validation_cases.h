// Shared by the validation tests: a small schema with every kind of type, and table-driven cases
// of a document and the errors graphql-js 16 reports for it (message and locations, in order).
// The expected errors of the tables were produced by graphql-js's validate() on the same schema
// and documents.
#ifndef NETGRAPH_TESTS_UNIT_GRAPHQL_VALIDATION_VALIDATION_CASES_H_
#define NETGRAPH_TESTS_UNIT_GRAPHQL_VALIDATION_VALIDATION_CASES_H_

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/graphql/engine.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/validation/validate.h"

namespace netgraph::graphql {

struct ExpectedError {
  std::string message;
  std::vector<std::pair<int, int>> locations;  // line, column
};

struct ValidationCase {
  std::string name;
  std::string document;
  std::vector<ExpectedError> errors;
};

// For GoogleTest's failure messages and test names.
inline std::ostream& operator<<(std::ostream& out, const ValidationCase& c) {
  return out << c.name;
}
inline std::string CaseName(const ::testing::TestParamInfo<ValidationCase>& info) {
  return info.param.name;
}

const Schema& TestSchema();

// The errors of `document`: its syntax error, or Validate's errors against TestSchema().
std::vector<Error> ErrorsOf(const std::string& document, const ValidationOptions& options = {});

// Checks ErrorsOf(test_case.document) against test_case.errors.
void ExpectCase(const ValidationCase& test_case);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_TESTS_UNIT_GRAPHQL_VALIDATION_VALIDATION_CASES_H_
