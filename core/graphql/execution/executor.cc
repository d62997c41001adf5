#include "core/graphql/execution/executor.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graphql/execution/json_writer.h"
#include "core/graphql/execution/leaf_serializer.h"
#include "core/graphql/execution/operation_cost.h"
#include "core/graphql/execution/response_buffer.h"
#include "core/graphql/execution/variables.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/log.h"

namespace netgraph::graphql {

namespace {

const Value kNull;
const Value kEmptyObject = Value::MakeObject({});  // the arguments of a field that takes none

// Names are short: comparing them with overlapping word loads beats a call to memcmp.
inline bool SameName(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  auto same = [&a, &b]<typename Word>(std::size_t at, Word) {
    Word x;
    Word y;
    std::memcpy(&x, a.data() + at, sizeof x);
    std::memcpy(&y, b.data() + at, sizeof y);
    return x == y;
  };
  if (n >= 8 && n <= 16) return same(0, std::uint64_t{}) && same(n - 8, std::uint64_t{});
  if (n >= 4 && n < 8) return same(0, std::uint32_t{}) && same(n - 4, std::uint32_t{});
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  return std::memcmp(a.data(), b.data(), n) == 0;
}

// extensions.code of each of `errors` that carries one (a string).
std::vector<std::string> ErrorCodes(const std::vector<Error>& errors) {
  std::vector<std::string> codes;
  for (const Error& error : errors) {
    if (error.extensions.kind() != Value::Kind::kObject) continue;
    const Value* code = error.extensions.Find("code");
    if (code != nullptr && code->kind() == Value::Kind::kString) codes.push_back(code->as_string());
  }
  return codes;
}

ExecutionResult RequestError(std::vector<Error> errors) {
  return ExecutionResult{false, {}, json::ErrorsList(errors), ErrorCodes(errors)};
}

ExecutionResult RequestError(std::string message, std::vector<SourceLocation> locations = {}) {
  std::vector<Error> errors;
  errors.push_back(Error{std::move(message), std::move(locations), {}, {}});
  return RequestError(std::move(errors));
}

std::string QualifiedName(const FieldPlan& field) {
  return std::string(field.parent_type->name) + "." + std::string(field.definition->name);
}

// The state of the variables that @skip/@include read, 2 bits each (false, true, null, absent),
// under which plans may be shared; nullopt when they cannot (too many variables, or a value that
// is none of these).
std::optional<std::uint64_t> ConditionKey(const PreparedDocumentImpl& document,
                                          const Value& variables) {
  const std::vector<std::string_view>& names = document.condition_variables();
  if (names.size() > PreparedDocumentImpl::kMaxConditionVariables) return std::nullopt;
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Value* value = variables.Find(names[i]);
    std::uint64_t state = 3;  // absent
    if (value == nullptr) {
    } else if (value->is_null()) {
      state = 2;
    } else if (value->kind() == Value::Kind::kBoolean) {
      state = value->as_bool() ? 1 : 0;
    } else {
      return std::nullopt;
    }
    key |= state << (2 * i);
  }
  return key;
}

// The subscription Subscribe hands out: what ExecuteEvent needs to run the operation again.
class SubscriptionImpl final : public Subscription {
 public:
  struct State {
    const Bindings* bindings;
    std::shared_ptr<const PreparedDocumentImpl> document;
    const ast::OperationDefinition* operation;
    Value variables;
    Value root_value;
    Value topic;
  };

  explicit SubscriptionImpl(State state) : state_(std::move(state)) {}

  const Value& topic() const override { return state_.topic; }
  const State& state() const { return state_; }

 private:
  State state_;
};

// One execution of an operation.
class Execution {
 public:
  Execution(const Bindings& bindings, const PreparedDocumentImpl& document,
            const ast::OperationDefinition& operation, const Value& variables,
            RequestContext* context)
      : bindings_(bindings),
        schema_(*bindings.schema),
        document_(document),
        operation_(operation),
        variables_(variables),
        context_(context),
        plan_inputs_{bindings, document.document(), document.fragments(), &variables,
                     document.planned_bytes()} {
    path_.reserve(32);
  }

  // The root plan of the operation for `root_type`: the document's kept plan for the current
  // @skip/@include state, else a new one (kept when the document has room).
  const SelectionPlan& RootPlan(const NamedType& root_type) {
    std::optional<std::uint64_t> key = ConditionKey(document_, variables_);
    if (key) {
      if (const SelectionPlan* kept = document_.FindRootPlan(operation_, *key)) return *kept;
    }
    std::unique_ptr<SelectionPlan> plan =
        BuildSelectionPlan(plan_inputs_, root_type, {operation_.selection_set});
    if (key) {
      if (const SelectionPlan* kept = document_.KeepRootPlan(operation_, *key, plan)) return *kept;
    }
    own_root_plan_ = std::move(plan);
    plan_inputs_.planned_bytes = nullptr;  // its subplans go with it
    return *own_root_plan_;
  }

  // Executes the operation with `root_value` as the root object. With `event`, a subscription
  // event: the root fields' value (or their resolvers' parent).
  ExecutionResult Run(const Value& root_value, const Value* event) {
    const NamedType* root_type = schema_.RootType(operation_.operation);
    if (root_type == nullptr) {
      // graphql-js 16 executes such an operation, with this error and null data.
      errors_.push_back(Error{"Schema is not configured to execute " +
                                  std::string(ast::OperationTypeName(operation_.operation)) +
                                  " operation.",
                              {Locate(operation_.offset)},
                              {},
                              {}});
      return Finish("null");
    }
    const SelectionPlan& plan = RootPlan(*root_type);
    out_ = ResponseBuffer(plan.output_size_hint > 0 ? plan.output_size_hint : 256);
    const std::size_t mark = out_.size();
    bool completed = false;
    if (plan.error) {
      pending_ = Error{plan.error->message, {Locate(plan.error->offset)}, {}, {}};
    } else {
      root_field_value_ = event;
      completed = ExecuteSelection(plan, event != nullptr ? *event : root_value);
    }
    if (!completed) {
      out_.Truncate(mark);
      out_.Append("null");
      errors_.push_back(std::move(pending_));
    }
    plan.output_size_hint = out_.size();
    return Finish(out_.Release());
  }

  // CreateSourceStream's part after variable coercion: the subscribe resolver of the root field.
  // Returns the topic, or nullopt with the error in *error.
  std::optional<Value> SourceStreamTopic(const NamedType& root_type, const Value& root_value,
                                         std::vector<Error>* error) {
    const SelectionPlan& plan = RootPlan(root_type);
    if (plan.error) {
      error->push_back(Error{plan.error->message, {Locate(plan.error->offset)}, {}, {}});
      return std::nullopt;
    }
    if (plan.fields.empty()) {
      error->push_back(
          Error{"The subscription selects no field.", {Locate(operation_.offset)}, {}, {}});
      return std::nullopt;
    }
    const FieldPlan& field = plan.fields.front();
    path_.push_back({field.response_key, 0});
    std::optional<Value> topic;
    const Value* arguments = Arguments(field, &per_request_arguments_);
    if (arguments != nullptr) {
      if (const Resolver* subscribe = bindings_.FindSubscribe(*field.definition)) {
        ResolverResult result = Call(*subscribe, field, root_value, *arguments);
        if (result.ok()) {
          topic = std::move(result.value());
        } else {
          Raise(field, result.error_message(), result.error_code());
        }
      } else {
        const Value* value = root_value.Find(field.definition->name);
        topic = value != nullptr ? *value : Value();
      }
    }
    if (!topic) error->push_back(std::move(pending_));
    return topic;
  }

 private:
  struct PathSegment {
    std::string_view key;  // empty for a list index
    std::size_t index;
  };

  SourceLocation Locate(std::uint32_t offset) const { return document_.document().Locate(offset); }

  ExecutionResult Finish(std::string data) {
    if (errors_.empty()) return ExecutionResult{true, std::move(data), {}};
    return ExecutionResult{true, std::move(data), json::ErrorsList(errors_), ErrorCodes(errors_)};
  }

  // ---- Selection sets and fields. Each returns false when its value failed where null is not
  // allowed: the error is pending_, and the caller nulls the nearest nullable position.

  bool ExecuteSelection(const SelectionPlan& plan, const Value& parent) {
    // Leaf fields of the default resolver, the bulk of most responses, are written right here;
    // everything else, and any value that might fail, goes through ExecuteField.
    // (Not for the root fields of a subscription event, whose value is the event itself.)
    const bool event_root = root_field_value_ != nullptr && path_.empty();
    const Value::Object* members =
        parent.kind() == Value::Kind::kObject && !event_root ? &parent.as_object() : nullptr;
    out_.Append('{');
    bool first = true;
    for (const FieldPlan& field : plan.fields) {
      const std::string& key = field.json_key;  // `,"key":`
      out_.Append(std::string_view(key.data() + first, key.size() - first));
      first = false;
      if (field.leaf_type != nullptr && members != nullptr) {
        const Value* value = FindMember(field, *members);
        if (value == nullptr || value->is_null()) {
          if (!field.definition->type.is_non_null()) {
            out_.Append("null");
            continue;
          }
        } else if (field.string_leaf && value->kind() == Value::Kind::kString) {
          json::AppendString(value->as_string(), &out_);
          continue;
        } else if (WriteLeaf(*field.leaf_type, field.leaf_kind, *value)) {
          continue;
        }
      }
      if (!ExecuteField(field, parent)) return false;
    }
    out_.Append('}');
    return true;
  }

  // Writes the usual values of leaf types directly (a string for String, ID and custom scalars,
  // an in-range Int, a Boolean, a finite Float, a known enum name); returns false, having written
  // nothing, for anything else, which SerializeLeaf then handles.
  bool WriteLeaf(const NamedType& type, LeafKind kind, const Value& value) {
    switch (value.kind()) {
      case Value::Kind::kString:
        if (kind == LeafKind::kString || kind == LeafKind::kId || kind == LeafKind::kCustom ||
            (kind == LeafKind::kEnum && type.FindEnumValue(value.as_string()) != nullptr)) {
          json::AppendString(value.as_string(), &out_);
          return true;
        }
        return false;
      case Value::Kind::kInt:
        if ((kind == LeafKind::kInt && value.as_int() >= INT32_MIN &&
             value.as_int() <= INT32_MAX) ||
            kind == LeafKind::kFloat || kind == LeafKind::kCustom) {
          json::AppendInt(value.as_int(), &out_);
          return true;
        }
        return false;
      case Value::Kind::kBoolean:
        if (kind == LeafKind::kBoolean || kind == LeafKind::kCustom) {
          out_.Append(value.as_bool() ? std::string_view("true") : std::string_view("false"));
          return true;
        }
        return false;
      case Value::Kind::kFloat:
        if ((kind == LeafKind::kFloat || kind == LeafKind::kCustom) &&
            std::isfinite(value.as_float())) {
          json::AppendNumber(value.as_float(), &out_);
          return true;
        }
        return false;
      default:
        return false;
    }
  }

  bool ExecuteField(const FieldPlan& field, const Value& parent) {
    path_.push_back({field.response_key, 0});
    const std::size_t mark = out_.size();
    bool completed = ResolveField(field, parent);
    if (!completed && !field.definition->type.is_non_null()) {
      out_.Truncate(mark);
      out_.Append("null");
      errors_.push_back(std::move(pending_));
      completed = true;
    }
    path_.pop_back();
    return completed;
  }

  // The field's arguments: `*storage` holds them when they are coerced now. nullptr after
  // raising a coercion error.
  const Value* Arguments(const FieldPlan& field, std::optional<Value>* storage) {
    switch (field.argument_mode) {
      case ArgumentMode::kNone:
        return &kEmptyObject;
      case ArgumentMode::kConstant:
        if (field.argument_error) {
          RaiseAt(field.argument_error->message, field.argument_error->offset);
          return nullptr;
        }
        return &field.arguments;
      case ArgumentMode::kPerRequest: {
        const ast::Field& node = *field.nodes[0];
        ArgumentError argument_error;
        std::optional<Value> coerced = CoerceArgumentValues(
            field.definition->arguments, node.arguments, node.offset, &variables_, &argument_error);
        if (!coerced) {
          RaiseAt(argument_error.message, argument_error.offset);
          return nullptr;
        }
        *storage = std::move(coerced);
        return &**storage;
      }
    }
    return nullptr;
  }

  ResolverResult Call(const Resolver& resolver, const FieldPlan& field, const Value& parent,
                      const Value& arguments) {
    ResolveInfo info{parent, arguments, context_, field.parent_type->name, field.definition->name};
    try {
      return resolver(info);
    } catch (const std::exception& e) {
      log::Error("resolver of " + QualifiedName(field) + " threw: " + e.what());
    } catch (...) {
      log::Error("resolver of " + QualifiedName(field) + " threw");
    }
    return ResolverResult::Error("Internal server error", "INTERNAL_SERVER_ERROR");
  }

  // The default resolver: the parent object's member named after the field. The position where
  // it was found last time is tried first, since objects of a type usually list their members
  // in the same order.
  static const Value* FindMember(const FieldPlan& field, const Value& parent) {
    if (parent.kind() != Value::Kind::kObject) return nullptr;
    return FindMember(field, parent.as_object());
  }
  static inline const Value* FindMember(const FieldPlan& field, const Value::Object& members) {
    const std::string_view name = field.definition->name;
    const std::size_t hint = field.member_hint;
    if (hint < members.size() && SameName(members[hint].first, name)) {
      return &members[hint].second;
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (SameName(members[i].first, name)) {
        field.member_hint = i;
        return &members[i].second;
      }
    }
    return nullptr;
  }

  bool ResolveField(const FieldPlan& field, const Value& parent) {
    if (field.resolution == FieldResolution::kTypename) {
      out_.Append(field.typename_json);
      return true;
    }
    std::optional<Value> arguments_storage;  // for arguments coerced now
    const Value* arguments = nullptr;
    if (field.argument_mode != ArgumentMode::kNone) {
      arguments = Arguments(field, &arguments_storage);
      if (arguments == nullptr) return false;
    }
    if (field.resolution == FieldResolution::kDefault) {
      const Value* value = root_field_value_ != nullptr && path_.size() == 1
                               ? root_field_value_
                               : FindMember(field, parent);
      return CompleteValue(field, field.definition->type, value != nullptr ? *value : kNull);
    }
    ResolverResult result =
        Call(*field.resolver, field, parent, arguments != nullptr ? *arguments : kEmptyObject);
    if (!result.ok()) {
      Raise(field, result.error_message(), result.error_code());
      return false;
    }
    return CompleteValue(field, field.definition->type, result.value());
  }

  bool CompleteValue(const FieldPlan& field, TypeRef type, const Value& value) {
    if (type.is_non_null()) {
      if (value.is_null()) return RaiseNullForNonNull(field);
      type = type.OfType();
    } else if (value.is_null()) {
      out_.Append("null");
      return true;
    }
    if (type.is_list()) return CompleteList(field, type, value);
    const NamedType& named = *type.named();
    switch (named.kind) {
      case TypeKind::kScalar:
      case TypeKind::kEnum: {
        const LeafKind kind = bindings_.leaf_kind(named);
        return WriteLeaf(named, kind, value) || SerializeLeafOrRaise(field, named, kind, value);
      }
      case TypeKind::kObject:
        return CompleteObject(field, named, value);
      case TypeKind::kInterface:
      case TypeKind::kUnion:
        return CompleteAbstract(field, named, value);
      case TypeKind::kInputObject:
        break;
    }
    Raise(field, "Cannot complete value of unexpected output type: " + std::string(named.name));
    return false;
  }

  bool CompleteList(const FieldPlan& field, TypeRef type, const Value& value) {
    if (value.kind() != Value::Kind::kList) return RaiseNotIterable(field);
    const TypeRef item_type = type.OfType();
    const NamedType* leaf_items = item_type.Nullable().is_named() && IsLeafType(*item_type.named())
                                      ? item_type.named()
                                      : nullptr;
    const LeafKind leaf_kind =
        leaf_items != nullptr ? bindings_.leaf_kind(*leaf_items) : LeafKind::kCustom;
    out_.Append('[');
    path_.push_back({{}, 0});
    const Value::List& items = value.as_list();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_.Append(',');
      if (leaf_items != nullptr && !items[i].is_null() &&
          WriteLeaf(*leaf_items, leaf_kind, items[i])) {
        continue;
      }
      path_.back().index = i;
      const std::size_t mark = out_.size();
      if (CompleteValue(field, item_type, items[i])) continue;
      if (item_type.is_non_null()) {
        path_.pop_back();
        return false;
      }
      out_.Truncate(mark);
      out_.Append("null");
      errors_.push_back(std::move(pending_));
    }
    path_.pop_back();
    out_.Append(']');
    return true;
  }

  [[gnu::noinline]] bool CompleteAbstract(const FieldPlan& field, const NamedType& abstract_type,
                                          const Value& value) {
    const std::string abstract_name(abstract_type.name);
    std::string resolved;
    std::string_view runtime_name;
    if (const TypeResolver* resolver = bindings_.FindTypeResolver(abstract_type)) {
      try {
        resolved = (*resolver)(value);
      } catch (const std::exception& e) {
        log::Error("type resolver of " + abstract_name + " threw: " + e.what());
        Raise(field, "Internal server error", "INTERNAL_SERVER_ERROR");
        return false;
      }
      runtime_name = resolved;
    } else if (const Value* type_name = value.Find("__typename");
               type_name != nullptr && type_name->kind() == Value::Kind::kString) {
      runtime_name = type_name->as_string();
    }
    if (runtime_name.empty()) {
      Raise(field, "Abstract type \"" + abstract_name +
                       "\" must resolve to an Object type at runtime for field \"" +
                       QualifiedName(field) + "\". Either the \"" + abstract_name +
                       "\" type should provide a \"resolveType\" function or each possible type "
                       "should provide an \"isTypeOf\" function.");
      return false;
    }
    const NamedType* runtime_type = schema_.FindType(runtime_name);
    if (runtime_type == nullptr) {
      Raise(field, "Abstract type \"" + abstract_name + "\" was resolved to a type \"" +
                       std::string(runtime_name) + "\" that does not exist inside the schema.");
      return false;
    }
    if (runtime_type->kind != TypeKind::kObject) {
      Raise(field, "Abstract type \"" + abstract_name + "\" was resolved to a non-object type \"" +
                       std::string(runtime_name) + "\".");
      return false;
    }
    if (!schema_.IsSubType(abstract_type, *runtime_type)) {
      Raise(field, "Runtime Object type \"" + std::string(runtime_name) +
                       "\" is not a possible type for \"" + abstract_name + "\".");
      return false;
    }
    return CompleteObject(field, *runtime_type, value);
  }

  bool CompleteObject(const FieldPlan& field, const NamedType& object_type, const Value& value) {
    const SelectionPlan& plan = !field.subplans.empty() && field.subplans[0]->type == &object_type
                                    ? *field.subplans[0]
                                    : SubselectionPlan(plan_inputs_, field, object_type);
    if (plan.error) {
      RaiseAt(plan.error->message, plan.error->offset);
      return false;
    }
    return ExecuteSelection(plan, value);
  }

  // ---- Errors. A raised error becomes pending_ and is reported where the null stops.

  Value CurrentPath() const {
    if (path_.empty()) return Value();
    Value::List segments;
    segments.reserve(path_.size());
    for (const PathSegment& segment : path_) {
      segments.push_back(segment.key.empty() ? Value::Int(static_cast<std::int64_t>(segment.index))
                                             : Value::String(std::string(segment.key)));
    }
    return Value::MakeList(std::move(segments));
  }

  // The rarer paths stay out of line, so that the hot functions keep small stack frames.
  [[gnu::noinline]] bool RaiseNullForNonNull(const FieldPlan& field) {
    Raise(field, "Cannot return null for non-nullable field " + QualifiedName(field) + ".");
    return false;
  }
  [[gnu::noinline]] bool RaiseNotIterable(const FieldPlan& field) {
    Raise(field,
          "Expected Iterable, but did not find one for field \"" + QualifiedName(field) + "\".");
    return false;
  }
  [[gnu::noinline]] bool SerializeLeafOrRaise(const FieldPlan& field, const NamedType& type,
                                              LeafKind kind, const Value& value) {
    Status serialized = SerializeLeaf(type, kind, value, &out_);
    if (serialized.ok()) return true;
    Raise(field, serialized.message());
    return false;
  }

  // An error located at the field's nodes, at the current path.
  [[gnu::noinline]] void Raise(const FieldPlan& field, std::string message,
                               const std::string& code = {}) {
    if (field.locations.empty()) {
      for (const ast::Field* node : field.nodes) field.locations.push_back(Locate(node->offset));
    }
    pending_ = Error{std::move(message), field.locations, CurrentPath(), {}};
    if (!code.empty()) {
      pending_.extensions = Value::MakeObject({{"code", Value::String(code)}});
    }
  }

  // An error located at one node (an argument or directive value), at the current path.
  [[gnu::noinline]] void RaiseAt(std::string message, std::uint32_t offset) {
    pending_ = Error{std::move(message), {Locate(offset)}, CurrentPath(), {}};
  }

  const Bindings& bindings_;
  const Schema& schema_;
  const PreparedDocumentImpl& document_;
  const ast::OperationDefinition& operation_;
  const Value& variables_;
  RequestContext* context_;
  PlanInputs plan_inputs_;
  std::unique_ptr<SelectionPlan> own_root_plan_;  // when the document keeps no plan for this run
  const Value* root_field_value_ = nullptr;       // a subscription event
  std::optional<Value> per_request_arguments_;
  ResponseBuffer out_;
  std::vector<PathSegment> path_;
  std::vector<Error> errors_;
  Error pending_;
};

// Operation selection and variable coercion, shared by Execute and Subscribe. Returns the
// operation and fills *variables, or returns nullptr with *request_error set.
const ast::OperationDefinition* StartRequest(const Bindings& bindings,
                                             const ExecutorOptions& options,
                                             const PreparedDocumentImpl& document,
                                             const ExecuteParams& params, Value* variables,
                                             ExecutionResult* request_error) {
  if (!document.valid()) {
    *request_error = RequestError(document.errors());
    return nullptr;
  }
  Result<const ast::OperationDefinition*> selected =
      document.SelectOperation(params.operation_name);
  if (!selected.ok()) {
    *request_error = RequestError(selected.status().message());
    return nullptr;
  }
  const ast::OperationDefinition* operation = *selected;
  std::vector<Error> errors;
  std::optional<Value> coerced = CoerceVariableValues(*bindings.schema, document.document(),
                                                      *operation, params.variables, &errors);
  if (!coerced) {
    if (options.hide_suggestions) {
      for (Error& error : errors) StripSuggestions(&error.message);
    }
    *request_error = RequestError(std::move(errors));
    return nullptr;
  }
  if (options.max_cost) {
    std::optional<std::uint64_t> cost = document.FindCost(*operation);
    if (!cost) {
      const OperationCost costed =
          CostOf(*bindings.schema, document.fragments(), *operation, *coerced);
      if (!costed.sized_by_variables) document.KeepCost(*operation, costed.cost);
      cost = costed.cost;
    }
    if (*cost > *options.max_cost) {
      Error error{CostLimitMessage(*cost, *options.max_cost),
                  {document.document().Locate(operation->offset)},
                  {},
                  Value::MakeObject({{"code", Value::String(std::string(kCostLimitCode))}})};
      *request_error = RequestError(std::vector<Error>{std::move(error)});
      return nullptr;
    }
  }
  *variables = std::move(*coerced);
  return operation;
}

}  // namespace

ExecutionResult Executor::Execute(const PreparedDocumentImpl& document,
                                  const ExecuteParams& params) const {
  Value variables;
  ExecutionResult request_error;
  if (document.valid()) {
    // A subscription is refused before its variables are looked at.
    Result<const ast::OperationDefinition*> operation =
        document.SelectOperation(params.operation_name);
    if (operation.ok() && (*operation)->operation == OperationType::kSubscription) {
      return RequestError(std::string(params.subscription_refusal),
                          {document.document().Locate((*operation)->offset)});
    }
  }
  const ast::OperationDefinition* operation =
      StartRequest(bindings_, options_, document, params, &variables, &request_error);
  if (operation == nullptr) return request_error;
  Execution execution(bindings_, document, *operation, variables, params.context);
  return execution.Run(params.root_value, nullptr);
}

std::optional<Value> Executor::CoerceVariables(const PreparedDocumentImpl& document,
                                               const ExecuteParams& params) const {
  Value variables;
  ExecutionResult request_error;
  if (StartRequest(bindings_, options_, document, params, &variables, &request_error) == nullptr) {
    return std::nullopt;
  }
  return variables;
}

std::unique_ptr<Subscription> Executor::Subscribe(
    std::shared_ptr<const PreparedDocumentImpl> document, const ExecuteParams& params,
    ExecutionResult* request_error) const {
  Value variables;
  const ast::OperationDefinition* operation =
      StartRequest(bindings_, options_, *document, params, &variables, request_error);
  if (operation == nullptr) return nullptr;
  const SourceLocation location = document->document().Locate(operation->offset);
  if (operation->operation != OperationType::kSubscription) {
    *request_error = RequestError("Only subscription operations can be subscribed to.", {location});
    return nullptr;
  }
  const NamedType* root_type = bindings_.schema->subscription_type();
  if (root_type == nullptr) {
    *request_error =
        RequestError("Schema is not configured to execute subscription operation.", {location});
    return nullptr;
  }
  std::vector<Error> errors;
  std::optional<Value> topic;
  {
    Execution execution(bindings_, *document, *operation, variables, params.context);
    topic = execution.SourceStreamTopic(*root_type, params.root_value, &errors);
  }
  if (!topic) {
    *request_error = RequestError(std::move(errors));
    return nullptr;
  }
  return std::make_unique<SubscriptionImpl>(
      SubscriptionImpl::State{&bindings_, std::move(document), operation, std::move(variables),
                              params.root_value, std::move(*topic)});
}

ExecutionResult Executor::ExecuteEvent(const Subscription& subscription, const Value& event,
                                       RequestContext* context) const {
  const auto* started = dynamic_cast<const SubscriptionImpl*>(&subscription);
  if (started == nullptr || started->state().bindings != &bindings_) {
    return RequestError("This subscription was not started by this engine.");
  }
  const SubscriptionImpl::State& state = started->state();
  Execution execution(bindings_, *state.document, *state.operation, state.variables, context);
  return execution.Run(state.root_value, &event);
}

}  // namespace netgraph::graphql
