// The validation rules, one class per rule of graphql-js 16 (each implemented in the file named
// after it), plus netgraph's own limits. A rule sees the document as graphql-js's visitor does:
// the walk calls Enter and Leave for the node kinds the rule asks for, in document order, after
// TypeInfo has entered the node; a rule's Enter that returns false hides that node's subtree
// from the rule (graphql-js's visitInParallel "skip"). Rules run in the order Validate lists them,
// which is graphql-js's specifiedRules order, so errors come out in graphql-js's order.
#ifndef NETGRAPH_CORE_GRAPHQL_VALIDATION_RULES_H_
#define NETGRAPH_CORE_GRAPHQL_VALIDATION_RULES_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/graphql/language/ast.h"
#include "core/graphql/utilities/name_map.h"
#include "core/graphql/validation/validation_context.h"

namespace netgraph::graphql {

// A set of AST node kinds.
class NodeKinds {
 public:
  constexpr NodeKinds() = default;
  constexpr NodeKinds(std::initializer_list<ast::NodeKind> kinds) {
    for (ast::NodeKind kind : kinds) bits_ |= Bit(kind);
  }
  constexpr bool Has(ast::NodeKind kind) const { return (bits_ & Bit(kind)) != 0; }

 private:
  static constexpr std::uint64_t Bit(ast::NodeKind kind) {
    return std::uint64_t{1} << static_cast<unsigned>(kind);
  }
  std::uint64_t bits_ = 0;
};

class Rule {
 public:
  Rule(ValidationContext& context, NodeKinds enters, NodeKinds leaves = {})
      : context_(context), enters_(enters), leaves_(leaves) {}
  Rule(const Rule&) = delete;
  Rule& operator=(const Rule&) = delete;
  virtual ~Rule() = default;

  // Before and after the walk of the document's definitions.
  virtual void EnterDocument() {}
  virtual void LeaveDocument() {}
  // Called only for the kinds given to the constructor.
  virtual bool Enter(const ast::Node& node) {
    (void)node;
    return true;
  }
  virtual void Leave(const ast::Node& node) { (void)node; }

  NodeKinds enters() const { return enters_; }
  NodeKinds leaves() const { return leaves_; }

 protected:
  ValidationContext& context() const { return context_; }
  const Schema& schema() const { return context_.schema(); }
  const TypeInfo& type_info() const { return context_.type_info(); }

 private:
  ValidationContext& context_;
  NodeKinds enters_;
  NodeKinds leaves_;
};

// ---- graphql-js's specifiedRules, in its order.

class ExecutableDefinitionsRule : public Rule {
 public:
  explicit ExecutableDefinitionsRule(ValidationContext& context) : Rule(context, {}) {}
  void EnterDocument() override;
};

class UniqueOperationNamesRule : public Rule {
 public:
  explicit UniqueOperationNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kOperationDefinition}) {}
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<std::uint32_t> known_names_;  // name offsets
};

class LoneAnonymousOperationRule : public Rule {
 public:
  explicit LoneAnonymousOperationRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kOperationDefinition}) {}
  void EnterDocument() override;
  bool Enter(const ast::Node& node) override;

 private:
  std::size_t operation_count_ = 0;
};

class SingleFieldSubscriptionsRule : public Rule {
 public:
  explicit SingleFieldSubscriptionsRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kOperationDefinition}) {}
  bool Enter(const ast::Node& node) override;
};

class KnownTypeNamesRule : public Rule {
 public:
  explicit KnownTypeNamesRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<bool> defined_types_;  // type definitions in the document itself
  std::vector<std::string_view> defined_type_names_;
};

class FragmentsOnCompositeTypesRule : public Rule {
 public:
  explicit FragmentsOnCompositeTypesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kInlineFragment, ast::NodeKind::kFragmentDefinition}) {}
  bool Enter(const ast::Node& node) override;
};

class VariablesAreInputTypesRule : public Rule {
 public:
  explicit VariablesAreInputTypesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kVariableDefinition}) {}
  bool Enter(const ast::Node& node) override;
};

class ScalarLeafsRule : public Rule {
 public:
  explicit ScalarLeafsRule(ValidationContext& context) : Rule(context, {ast::NodeKind::kField}) {}
  bool Enter(const ast::Node& node) override;
};

class FieldsOnCorrectTypeRule : public Rule {
 public:
  explicit FieldsOnCorrectTypeRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kField}) {}
  bool Enter(const ast::Node& node) override;
};

class UniqueFragmentNamesRule : public Rule {
 public:
  explicit UniqueFragmentNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kFragmentDefinition}) {}
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<std::uint32_t> known_names_;  // name offsets
};

class KnownFragmentNamesRule : public Rule {
 public:
  explicit KnownFragmentNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kFragmentSpread}) {}
  bool Enter(const ast::Node& node) override;
};

class NoUnusedFragmentsRule : public Rule {
 public:
  explicit NoUnusedFragmentsRule(ValidationContext& context) : Rule(context, {}) {}
  void LeaveDocument() override;
};

class PossibleFragmentSpreadsRule : public Rule {
 public:
  explicit PossibleFragmentSpreadsRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kInlineFragment, ast::NodeKind::kFragmentSpread}) {}
  bool Enter(const ast::Node& node) override;
};

class NoFragmentCyclesRule : public Rule {
 public:
  explicit NoFragmentCyclesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kFragmentDefinition}) {}
  bool Enter(const ast::Node& node) override;

 private:
  void DetectCycles(const ast::FragmentDefinition& fragment);

  NameMap<bool> visited_;
  std::vector<const ast::FragmentSpread*> spread_path_;
  // Per fragment name: where its spreads start in spread_path_ while it is being explored.
  std::vector<std::pair<std::string_view, std::size_t>> path_index_;
};

class UniqueVariableNamesRule : public Rule {
 public:
  explicit UniqueVariableNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kOperationDefinition}) {}
  bool Enter(const ast::Node& node) override;
};

class NoUndefinedVariablesRule : public Rule {
 public:
  explicit NoUndefinedVariablesRule(ValidationContext& context)
      : Rule(context, {}, {ast::NodeKind::kOperationDefinition}) {}
  void Leave(const ast::Node& node) override;
};

class NoUnusedVariablesRule : public Rule {
 public:
  explicit NoUnusedVariablesRule(ValidationContext& context)
      : Rule(context, {}, {ast::NodeKind::kOperationDefinition}) {}
  void Leave(const ast::Node& node) override;
};

class KnownDirectivesRule : public Rule {
 public:
  explicit KnownDirectivesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kDirective}) {}
  bool Enter(const ast::Node& node) override;
};

class UniqueDirectivesPerLocationRule : public Rule {
 public:
  explicit UniqueDirectivesPerLocationRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  // Directives seen on the schema, and per type name on its definition and extensions.
  std::vector<const ast::Directive*> schema_directives_;
  std::vector<std::pair<std::string_view, std::vector<const ast::Directive*>>> type_directives_;
};

// The directive half of KnownArgumentNamesRule, which SDL validation runs alone.
class KnownArgumentNamesOnDirectivesRule : public Rule {
 public:
  explicit KnownArgumentNamesOnDirectivesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kDirective}) {}
  bool Enter(const ast::Node& node) override;

 protected:
  KnownArgumentNamesOnDirectivesRule(ValidationContext& context, NodeKinds enters)
      : Rule(context, enters) {}
};

class KnownArgumentNamesRule : public KnownArgumentNamesOnDirectivesRule {
 public:
  explicit KnownArgumentNamesRule(ValidationContext& context)
      : KnownArgumentNamesOnDirectivesRule(context,
                                           {ast::NodeKind::kDirective, ast::NodeKind::kArgument}) {}
  bool Enter(const ast::Node& node) override;
};

class UniqueArgumentNamesRule : public Rule {
 public:
  explicit UniqueArgumentNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kField, ast::NodeKind::kDirective}) {}
  bool Enter(const ast::Node& node) override;
};

class ValuesOfCorrectTypeRule : public Rule {
 public:
  explicit ValuesOfCorrectTypeRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  void CheckLeafValue(const ast::Value& value);
  bool CheckObjectValue(const ast::ObjectValue& object);
  void CheckOneOf(const ast::ObjectValue& object, const NamedType& type);

  const ast::OperationDefinition* operation_ = nullptr;  // the last operation entered
};

// The directive half of ProvidedRequiredArgumentsRule, which SDL validation runs alone.
class ProvidedRequiredArgumentsOnDirectivesRule : public Rule {
 public:
  explicit ProvidedRequiredArgumentsOnDirectivesRule(ValidationContext& context)
      : Rule(context, {}, {ast::NodeKind::kDirective}) {}
  void Leave(const ast::Node& node) override;

 protected:
  ProvidedRequiredArgumentsOnDirectivesRule(ValidationContext& context, NodeKinds leaves)
      : Rule(context, {}, leaves) {}
};

class ProvidedRequiredArgumentsRule : public ProvidedRequiredArgumentsOnDirectivesRule {
 public:
  explicit ProvidedRequiredArgumentsRule(ValidationContext& context)
      : ProvidedRequiredArgumentsOnDirectivesRule(
            context, {ast::NodeKind::kField, ast::NodeKind::kDirective}) {}
  void Leave(const ast::Node& node) override;
};

class VariablesInAllowedPositionRule : public Rule {
 public:
  explicit VariablesInAllowedPositionRule(ValidationContext& context)
      : Rule(context, {}, {ast::NodeKind::kOperationDefinition}) {}
  void Leave(const ast::Node& node) override;
};

class OverlappingFieldsCanBeMergedRule : public Rule {
 public:
  explicit OverlappingFieldsCanBeMergedRule(ValidationContext& context);
  ~OverlappingFieldsCanBeMergedRule() override;
  bool Enter(const ast::Node& node) override;

 private:
  class Comparer;
  std::unique_ptr<Comparer> comparer_;  // created for the first selection set that needs it
};

class UniqueInputFieldNamesRule : public Rule {
 public:
  explicit UniqueInputFieldNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kObjectValue, ast::NodeKind::kObjectField},
             {ast::NodeKind::kObjectValue}) {}
  bool Enter(const ast::Node& node) override;
  void Leave(const ast::Node& node) override;

 private:
  // The object values being walked, innermost last.
  struct Scope {
    const ast::ObjectValue* object;
    std::size_t next_field = 0;
    NameMap<std::uint32_t> first_index;  // for long field lists
  };
  std::vector<Scope> scopes_;
};

// graphql-js's recommendedRules.
class MaxIntrospectionDepthRule : public Rule {
 public:
  explicit MaxIntrospectionDepthRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kField}) {}
  bool Enter(const ast::Node& node) override;
};

// ---- netgraph's limits (ValidationOptions::max_depth and max_aliases). The cost limit is checked
// on the operation that runs, at execution (core/graphql/execution/operation_cost.h).

class OperationLimitsRule : public Rule {
 public:
  explicit OperationLimitsRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kOperationDefinition}) {}
  bool Enter(const ast::Node& node) override;
};

// ---- graphql-js's specifiedSDLRules of their own. ValidateSdl runs them, in graphql-js's order,
// with KnownTypeNamesRule, KnownDirectivesRule, UniqueDirectivesPerLocationRule,
// KnownArgumentNamesOnDirectivesRule, UniqueArgumentNamesRule, UniqueInputFieldNamesRule and
// ProvidedRequiredArgumentsOnDirectivesRule above.

class LoneSchemaDefinitionRule : public Rule {
 public:
  explicit LoneSchemaDefinitionRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kSchemaDefinition}) {}
  bool Enter(const ast::Node& node) override;

 private:
  bool seen_ = false;
};

class UniqueOperationTypesRule : public Rule {
 public:
  explicit UniqueOperationTypesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kSchemaDefinition, ast::NodeKind::kSchemaExtension}) {}
  bool Enter(const ast::Node& node) override;

 private:
  // Per OperationType, its first definition in the schema definition or an extension.
  const ast::OperationTypeDefinition* defined_[3] = {nullptr, nullptr, nullptr};
};

class UniqueTypeNamesRule : public Rule {
 public:
  explicit UniqueTypeNamesRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<std::uint32_t> known_names_;  // name offsets
};

class UniqueEnumValueNamesRule : public Rule {
 public:
  explicit UniqueEnumValueNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kEnumTypeDefinition, ast::NodeKind::kEnumTypeExtension}) {}
  bool Enter(const ast::Node& node) override;

 private:
  // Per enum name, the offsets of its values' names, over its definition and extensions.
  std::unordered_map<std::string_view, NameMap<std::uint32_t>> known_values_;
};

class UniqueFieldDefinitionNamesRule : public Rule {
 public:
  explicit UniqueFieldDefinitionNamesRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  // Per type name, the offsets of its fields' names, over its definition and extensions.
  std::unordered_map<std::string_view, NameMap<std::uint32_t>> known_fields_;
};

class UniqueArgumentDefinitionNamesRule : public Rule {
 public:
  explicit UniqueArgumentDefinitionNamesRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  // `owner` names the field ("Type.field") or directive ("@name") in the message.
  void CheckArguments(std::string_view owner,
                      const ast::List<const ast::InputValueDefinition*>& arguments);
};

class UniqueDirectiveNamesRule : public Rule {
 public:
  explicit UniqueDirectiveNamesRule(ValidationContext& context)
      : Rule(context, {ast::NodeKind::kDirectiveDefinition}) {}
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<std::uint32_t> known_names_;  // name offsets
};

class PossibleTypeExtensionsRule : public Rule {
 public:
  explicit PossibleTypeExtensionsRule(ValidationContext& context);
  bool Enter(const ast::Node& node) override;

 private:
  NameMap<const ast::TypeDefinition*> defined_types_;  // the last definition of each name
  std::vector<std::string_view> defined_type_names_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_VALIDATION_RULES_H_
