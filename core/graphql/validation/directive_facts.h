// A directive as the directive rules see it (KnownDirectives, UniqueDirectivesPerLocation,
// KnownArgumentNames, ProvidedRequiredArguments): the document's own definition of that name when
// it has one (graphql-js lets a definition in the document stand in, though the document is then
// not executable), else the schema's, else unknown.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_DIRECTIVE_FACTS_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_DIRECTIVE_FACTS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graphql/language/ast.h"
#include "core/graphql/language/directive_location.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/validation/validation_context.h"

namespace netgraph::graphql {

class DirectiveFacts {
 public:
  DirectiveFacts(const ValidationContext& context, std::string_view name);

  bool known() const { return document_ != nullptr || schema_ != nullptr; }
  bool repeatable() const;
  bool HasLocation(DirectiveLocation location) const;
  // The arguments it defines, by position.
  std::size_t argument_count() const;
  std::string_view argument_name(std::size_t i) const;
  // Non-null without a default value: must be given.
  bool argument_required(std::size_t i) const;
  // The argument's type as written ("Boolean!").
  std::string argument_type(std::size_t i) const;
  bool HasArgument(std::string_view name) const;

 private:
  const ast::DirectiveDefinition* document_;
  const Directive* schema_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_VALIDATION_DIRECTIVE_FACTS_H_
