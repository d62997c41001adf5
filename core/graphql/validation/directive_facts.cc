#include "core/graphql/validation/directive_facts.h"

#include "core/graphql/language/printer.h"

namespace netgraph::graphql {

DirectiveFacts::DirectiveFacts(const ValidationContext& context, std::string_view name)
    : document_(context.DocumentDirective(name)),
      schema_(document_ == nullptr ? context.schema().FindDirective(name) : nullptr) {}

bool DirectiveFacts::repeatable() const {
  return document_ != nullptr ? document_->repeatable : schema_ != nullptr && schema_->repeatable;
}

bool DirectiveFacts::HasLocation(DirectiveLocation location) const {
  if (schema_ != nullptr) return schema_->HasLocation(location);
  if (document_ == nullptr) return false;
  for (const ast::Name& name : document_->locations) {
    if (DirectiveLocationFromName(name.value) == location) return true;
  }
  return false;
}

std::size_t DirectiveFacts::argument_count() const {
  if (document_ != nullptr) return document_->arguments.size();
  return schema_ != nullptr ? schema_->arguments.size() : 0;
}

std::string_view DirectiveFacts::argument_name(std::size_t i) const {
  return document_ != nullptr ? document_->arguments[i]->name.value : schema_->arguments[i].name;
}

bool DirectiveFacts::argument_required(std::size_t i) const {
  if (document_ == nullptr) return schema_->arguments[i].is_required();
  const ast::InputValueDefinition& argument = *document_->arguments[i];
  return argument.type->kind == ast::NodeKind::kNonNullType && argument.default_value == nullptr;
}

std::string DirectiveFacts::argument_type(std::size_t i) const {
  return document_ != nullptr ? Print(*document_->arguments[i]->type)
                              : schema_->arguments[i].type.ToString();
}

bool DirectiveFacts::HasArgument(std::string_view name) const {
  for (std::size_t i = 0; i < argument_count(); ++i) {
    if (argument_name(i) == name) return true;
  }
  return false;
}

}  // namespace netgraph::graphql
