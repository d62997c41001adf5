// Parses arbitrary bytes as a GraphQL document (executable or SDL; the parser reads both), and
// checks what must hold for any input:
//  - a syntax error has a message and a location inside the source;
//  - a parsed document prints to text that parses again and prints the same (print is stable),
//    unless it mixes executable and type-system definitions (see MixesDefinitionKinds), whose
//    printed text need not even parse;
//  - building a schema from it either fails with errors or gives a schema that prints.
// Sanitizers report memory errors, undefined behaviour and stack exhaustion.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/graphql/language/parser.h"
#include "core/graphql/language/printer.h"
#include "core/graphql/type/build_schema.h"
#include "core/graphql/type/schema_printer.h"

namespace {

using netgraph::graphql::Error;

[[noreturn]] void Fail(const std::string& what, const std::string& detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

// graphql-js's print writes an anonymous query without variables or directives as a bare
// selection set. After a type definition without a body (`input A @d`) that selection set reads
// back as the type's fields, so the printed text of such a mixed document is another document (or
// none), in graphql-js as here. Mixed documents are invalid in either role (validation refuses type
// definitions, a schema refuses operations), so stability is only required of the others.
bool MixesDefinitionKinds(const netgraph::graphql::ast::Document& document) {
  bool executable = false;
  bool type_system = false;
  for (const netgraph::graphql::ast::Definition* definition : document.definitions()) {
    (definition->is_executable() ? executable : type_system) = true;
  }
  return executable && type_system;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace graphql = netgraph::graphql;
  const std::string source(reinterpret_cast<const char*>(data), size);
  graphql::ParseOptions options;
  options.max_tokens = 20000;

  Error error;
  std::unique_ptr<const graphql::ast::Document> document = graphql::Parse(source, options, &error);
  if (document == nullptr) {
    if (error.message.empty()) Fail("a syntax error without a message", source);
    if (error.locations.size() != 1 || error.locations[0].line < 1 ||
        error.locations[0].column < 1) {
      Fail("a syntax error without a location: " + error.message, source);
    }
    return 0;
  }

  const std::string printed = graphql::Print(*document);
  if (!MixesDefinitionKinds(*document)) {
    Error reparse_error;
    std::unique_ptr<const graphql::ast::Document> reparsed =
        graphql::Parse(printed, options, &reparse_error);
    if (reparsed == nullptr) {
      Fail("printed document does not parse: " + reparse_error.message, printed);
    }
    if (graphql::Print(*reparsed) != printed) Fail("print is not stable", printed);
  }

  std::vector<Error> errors;
  std::unique_ptr<const graphql::Schema> schema = graphql::BuildSchema(source, &errors);
  if (schema == nullptr && errors.empty()) Fail("a schema build failed without errors", source);
  if (schema != nullptr) (void)graphql::PrintSchema(*schema);
  return 0;
}
