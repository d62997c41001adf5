#include "core/graphql/validation/validate.h"

#include <array>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "core/graphql/language/visitor.h"
#include "core/graphql/validation/rules.h"
#include "core/graphql/validation/validation_context.h"

namespace netgraph::graphql {

namespace {

// The rules of one validation, constructed in place (on the stack), in the order they run.
template <typename... Rules>
class RuleSetOf {
 public:
  static constexpr std::size_t kCount = sizeof...(Rules);

  explicit RuleSetOf(ValidationContext& context) : rules_(ContextFor<Rules>(context)...) {}

  std::array<Rule*, kCount> InOrder() {
    return std::apply([](auto&... rule) { return std::array<Rule*, kCount>{&rule...}; }, rules_);
  }

 private:
  template <typename>
  static ValidationContext& ContextFor(ValidationContext& context) {
    return context;
  }

  std::tuple<Rules...> rules_;
};

// graphql-js's specifiedRules in its order, then its MaxIntrospectionDepthRule, then netgraph's
// limits.
using ExecutableRuleSet =
    RuleSetOf<ExecutableDefinitionsRule, UniqueOperationNamesRule, LoneAnonymousOperationRule,
              SingleFieldSubscriptionsRule, KnownTypeNamesRule, FragmentsOnCompositeTypesRule,
              VariablesAreInputTypesRule, ScalarLeafsRule, FieldsOnCorrectTypeRule,
              UniqueFragmentNamesRule, KnownFragmentNamesRule, NoUnusedFragmentsRule,
              PossibleFragmentSpreadsRule, NoFragmentCyclesRule, UniqueVariableNamesRule,
              NoUndefinedVariablesRule, NoUnusedVariablesRule, KnownDirectivesRule,
              UniqueDirectivesPerLocationRule, KnownArgumentNamesRule, UniqueArgumentNamesRule,
              ValuesOfCorrectTypeRule, ProvidedRequiredArgumentsRule,
              VariablesInAllowedPositionRule, OverlappingFieldsCanBeMergedRule,
              UniqueInputFieldNamesRule, MaxIntrospectionDepthRule, OperationLimitsRule>;

// graphql-js's specifiedSDLRules in its order.
using SdlRuleSet =
    RuleSetOf<LoneSchemaDefinitionRule, UniqueOperationTypesRule, UniqueTypeNamesRule,
              UniqueEnumValueNamesRule, UniqueFieldDefinitionNamesRule,
              UniqueArgumentDefinitionNamesRule, UniqueDirectiveNamesRule, KnownTypeNamesRule,
              KnownDirectivesRule, UniqueDirectivesPerLocationRule, PossibleTypeExtensionsRule,
              KnownArgumentNamesOnDirectivesRule, UniqueArgumentNamesRule,
              UniqueInputFieldNamesRule, ProvidedRequiredArgumentsOnDirectivesRule>;

constexpr std::size_t kNodeKindCount =
    static_cast<std::size_t>(ast::NodeKind::kInputObjectTypeExtension) + 1;

// Per node kind, the positions of the rules that want to enter or leave such nodes, in order.
struct DispatchTable {
  std::array<std::vector<std::uint8_t>, kNodeKindCount> enter;
  std::array<std::vector<std::uint8_t>, kNodeKindCount> leave;
};

// The rules' interests are fixed per rule class, so the table is built once per process and rule
// set.
template <typename RuleSet>
const DispatchTable& Dispatch(const std::array<Rule*, RuleSet::kCount>& rules) {
  static const DispatchTable table = [&rules] {
    DispatchTable built;
    for (std::size_t kind = 0; kind < kNodeKindCount; ++kind) {
      for (std::size_t i = 0; i < rules.size(); ++i) {
        if (rules[i]->enters().Has(static_cast<ast::NodeKind>(kind))) {
          built.enter[kind].push_back(static_cast<std::uint8_t>(i));
        }
        if (rules[i]->leaves().Has(static_cast<ast::NodeKind>(kind))) {
          built.leave[kind].push_back(static_cast<std::uint8_t>(i));
        }
      }
    }
    return built;
  }();
  return table;
}

// The walk: TypeInfo, then the rules, at each node (graphql-js's visitWithTypeInfo over
// visitInParallel). A rule that skips a subtree is not called inside it.
template <typename RuleSet>
class Validator : public ast::Visitor {
 public:
  Validator(ValidationContext& context, const std::array<Rule*, RuleSet::kCount>& rules)
      : context_(context), rules_(rules), dispatch_(Dispatch<RuleSet>(rules)) {
    context.set_ancestors(&ancestors());
    skipping_.fill(nullptr);
  }

  bool Enter(const ast::Node& node) override {
    if (context_.aborted()) return false;
    context_.mutable_type_info().Enter(node);
    if (node.kind == ast::NodeKind::kOperationDefinition) {
      context_.EnterOperation(static_cast<const ast::OperationDefinition&>(node));
    } else if (node.kind == ast::NodeKind::kVariable) {
      context_.EnterVariable(static_cast<const ast::Variable&>(node));
    }
    for (std::uint8_t i : dispatch_.enter[static_cast<std::size_t>(node.kind)]) {
      if (skipping_[i] != nullptr) continue;
      if (!rules_[i]->Enter(node)) {
        skipping_[i] = &node;
        ++skipping_count_;
      }
      if (context_.aborted()) return false;
    }
    return true;
  }

  void Leave(const ast::Node& node) override {
    if (context_.aborted()) return;
    for (std::uint8_t i : dispatch_.leave[static_cast<std::size_t>(node.kind)]) {
      if (skipping_[i] != nullptr) continue;
      rules_[i]->Leave(node);
      if (context_.aborted()) return;
    }
    if (skipping_count_ > 0) {
      for (const ast::Node*& skipped : skipping_) {
        if (skipped == &node) {
          skipped = nullptr;
          --skipping_count_;
        }
      }
    }
    context_.mutable_type_info().Leave(node);
  }

 private:
  ValidationContext& context_;
  const std::array<Rule*, RuleSet::kCount>& rules_;
  const DispatchTable& dispatch_;
  std::array<const ast::Node*, RuleSet::kCount> skipping_;  // per rule: the subtree it skips
  std::size_t skipping_count_ = 0;
};

// Runs the rules of `RuleSet` over the context's document.
template <typename RuleSet>
std::vector<Error> RunRules(ValidationContext& context) {
  RuleSet rule_set(context);
  const std::array<Rule*, RuleSet::kCount> rules = rule_set.InOrder();
  for (Rule* rule : rules) {
    if (!context.aborted()) rule->EnterDocument();
  }
  Validator<RuleSet> validator(context, rules);
  ast::Walk(context.document(), &validator);
  for (Rule* rule : rules) {
    if (!context.aborted()) rule->LeaveDocument();
  }
  return context.TakeErrors();
}

}  // namespace

std::vector<Error> Validate(const Schema& schema, const ast::Document& document,
                            const ValidationOptions& options) {
  ValidationContext context(schema, document, options);
  return RunRules<ExecutableRuleSet>(context);
}

std::vector<Error> ValidateSdl(const ast::Document& sdl, const ast::Document& builtins) {
  ValidationOptions options;
  options.max_errors = std::numeric_limits<std::size_t>::max();  // as graphql-js's validateSDL
  ValidationContext context(Schema::Empty(), sdl, options, &builtins);
  return RunRules<SdlRuleSet>(context);
}

}  // namespace netgraph::graphql
