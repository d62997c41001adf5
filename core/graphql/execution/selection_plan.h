// The collected fields of a selection set for one runtime object type (the spec's CollectFields,
// as graphql-js does it: fragments and inline fragments that apply to the type, @skip and
// @include, fields merged by response key in first-seen order), with everything about each field
// that does not change from one execution to the next worked out once: its definition, its
// resolver, its arguments when they hold no variable, and its key already written as JSON.
//
// Plans form a tree that grows as execution meets runtime types: a field's sub-selection is
// planned, per object type, the first time a value of that type completes it. A prepared document
// keeps the trees it built (prepared_document.h), so executing a cached document again does no
// collection work at all.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_SELECTION_PLAN_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_SELECTION_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/graphql/engine.h"
#include "core/graphql/execution/bindings.h"
#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/input_literal.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

struct SelectionPlan;

// How a field gets its value.
enum class FieldResolution : std::uint8_t {
  kTypename,  // __typename: the plan's object type name
  kDefault,   // the parent Object's member of the same name
  kResolver,  // a bound resolver
};

enum class ArgumentMode : std::uint8_t {
  kNone,        // the field defines no arguments
  kConstant,    // no variables: coerced once, in `arguments` (or `argument_error`)
  kPerRequest,  // coerced for each execution
};

struct FieldPlan {
  std::string_view response_key;
  // `,"key":`: a field after the first writes all of it, the first one skips the comma.
  std::string json_key;
  const NamedType* parent_type = nullptr;
  const Field* definition = nullptr;
  // Every field node merged under the response key; arguments come from the first.
  std::vector<const ast::Field*> nodes;
  FieldResolution resolution = FieldResolution::kDefault;
  const Resolver* resolver = nullptr;
  ArgumentMode argument_mode = ArgumentMode::kNone;
  Value arguments;                              // kConstant: the coerced arguments
  std::optional<ArgumentError> argument_error;  // kConstant: coercion failed
  std::string typename_json;                    // kTypename: the quoted type name
  // A kDefault field without arguments whose type is a scalar or enum (perhaps non-null): the
  // executor writes its usual values without the general machinery.
  const NamedType* leaf_type = nullptr;
  LeafKind leaf_kind = LeafKind::kCustom;
  bool string_leaf = false;  // String, ID or a custom scalar: a string value is written as is

  // Filled as execution goes (see the file comment): sub-selection plans by runtime object type,
  // and the field nodes' locations once an error needs them.
  mutable std::vector<std::unique_ptr<SelectionPlan>> subplans;
  mutable std::vector<SourceLocation> locations;
  // kDefault: where the parent object held the member last time (a lookup hint).
  mutable std::size_t member_hint = 0;
};

// An error of field collection itself: an @skip or @include argument that does not coerce (a null
// variable for `if`). graphql-js raises it where it collects the fields.
struct CollectionError {
  std::string message;
  std::uint32_t offset = 0;
};

struct SelectionPlan {
  const NamedType* type = nullptr;
  std::vector<FieldPlan> fields;
  std::optional<CollectionError> error;  // fields is empty when set
  // Root plans: the size of the last response, to size the next one's buffer in one allocation.
  mutable std::size_t output_size_hint = 0;
};

// A document's fragments by name (the last of a name wins, as in graphql-js).
using FragmentMap = std::unordered_map<std::string_view, const ast::FragmentDefinition*>;

// What collection reads besides the selection sets: the schema and its bindings, the document's
// fragments and the execution's variables (for @skip and @include).
struct PlanInputs {
  const Bindings& bindings;
  const ast::Document& document;
  const FragmentMap& fragments;
  const Value* variables;
  // When not null, SubselectionPlan adds the PlanBytes of each plan it builds: the plans of a
  // cached document count towards the cache's bound (document_cache.h).
  std::size_t* planned_bytes = nullptr;
};

// Plans `selection_sets` (one for an operation; each field node's for a merged field) for
// `object_type`.
std::unique_ptr<SelectionPlan> BuildSelectionPlan(
    const PlanInputs& inputs, const NamedType& object_type,
    const std::vector<const ast::SelectionSet*>& selection_sets);

// The heap memory `plan` holds itself, not counting its subplans (an estimate: the coerced
// constant arguments count as their Value only).
std::size_t PlanBytes(const SelectionPlan& plan);

// The plan of `field`'s sub-selection for `object_type`, built on first use.
const SelectionPlan& SubselectionPlan(const PlanInputs& inputs, const FieldPlan& field,
                                      const NamedType& object_type);

// Whether the value literal contains a variable anywhere.
bool ContainsVariable(const ast::Value& literal);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_SELECTION_PLAN_H_
