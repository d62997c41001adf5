// Shared by the tests of the validation rules (and of the schema's, in type/): table-driven cases
// of a document and the errors graphql-js 16 reports for it (message and locations, in order),
// produced by graphql-js on the same documents. A test file runs its cases as
//
//   INSTANTIATE_TEST_SUITE_P(<Rule>, DocumentValidationTest, ::testing::ValuesIn(<cases>),
//   CaseName);
//
// for executable documents, validated against TestSchema() (a small schema with every kind of
// type) as graphql-js's validate() does; or with SdlValidationTest for SDL documents, built by
// BuildSchema as graphql-js's buildASTSchema + validateSchema do.
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
// The messages of `errors`, in order.
std::vector<std::string> Messages(const std::vector<Error>& errors);

// Each case's document is an executable document: ErrorsOf(document) must be its errors.
class DocumentValidationTest : public ::testing::TestWithParam<ValidationCase> {};
// Each case's document is SDL: the errors of BuildSchema(document) must be its errors.
class SdlValidationTest : public ::testing::TestWithParam<ValidationCase> {};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_TESTS_UNIT_GRAPHQL_VALIDATION_VALIDATION_CASES_H_
