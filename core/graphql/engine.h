// The GraphQL engine's public entry point: a schema loaded from SDL, resolvers bound to
// `Type.field`, and the three request steps of the spec: prepare (parse + validate, cached per
// process), execute, and, for subscriptions, create a source stream and map each event to a
// response.
//
// The engine knows nothing of HTTP or WebSockets. A caller turns an ExecutionResult into its own
// transport: `has_data` tells a request error (no `data` key: parse, validation, operation
// selection or variable coercion failed) from an executed operation (a `data` key, possibly null,
// with field errors beside it). `data` and `errors` come serialised but apart, so a transport can
// send the errors alone or add its own extensions without parsing the response again.
//
// Thread-safety: Create and Bind* happen before any request. After that, Prepare, Execute,
// Subscribe and ExecuteEvent may be called from one thread at a time per Engine (each process owns
// its engine).
#ifndef NETGRAPH_CORE_GRAPHQL_ENGINE_H_
#define NETGRAPH_CORE_GRAPHQL_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/graphql/error/error.h"
#include "core/graphql/language/operation_type.h"
#include "core/graphql/utilities/value.h"
#include "core/status.h"

namespace netgraph::graphql {

// Per-request data the caller hands through to resolvers: the authenticated user, a store handle...
// Resolvers static_cast it to the caller's own subclass.
class RequestContext {
 public:
  virtual ~RequestContext() = default;
};

// What a resolver returns: a value, or a field error. A field error nulls the field (and, for a
// non-null field, its nearest nullable ancestor) and is reported with the field's path and
// location.
class ResolverResult {
 public:
  ResolverResult(Value value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  // `code`, when not empty, is reported as extensions.code.
  static ResolverResult Error(std::string message, std::string code = {}) {
    ResolverResult r{Value()};
    r.failed_ = true;
    r.message_ = std::move(message);
    r.code_ = std::move(code);
    return r;
  }
  bool ok() const { return !failed_; }
  const Value& value() const { return value_; }
  Value& value() { return value_; }
  const std::string& error_message() const { return message_; }
  const std::string& error_code() const { return code_; }

 private:
  Value value_;
  bool failed_ = false;
  std::string message_;
  std::string code_;
};

struct ResolveInfo {
  const Value& parent;     // the parent object's value; the operation's root value for root fields
  const Value& arguments;  // an Object of coerced arguments (defaults applied; absent ones missing)
  RequestContext* context;  // as given in ExecuteParams; may be null
  std::string_view parent_type;
  std::string_view field_name;
};

// Unbound fields use the default resolver: the parent Object's field of the same name, else null.
using Resolver = std::function<ResolverResult(const ResolveInfo&)>;
// Names the concrete object type of a value of an interface or union. Unbound abstract types read
// the value's "__typename" field.
using TypeResolver = std::function<std::string(const Value&)>;

// Protective limits. Each breach is a request error with a message that names the limit.
struct Limits {
  std::size_t max_document_bytes = 100 * 1024;
  std::size_t max_tokens = 10000;
  std::size_t max_depth = 15;               // field nesting, not counting introspection fields
  std::size_t max_aliases = 30;             // aliased fields per document
  std::size_t max_introspection_depth = 3;  // as graphql-js's MaxIntrospectionDepthRule
  // Of the operation that runs, as core/graphql/execution/operation_cost.h counts it; 0: no limit.
  // The request error has extensions.code COST_LIMIT_EXCEEDED.
  std::uint64_t max_cost = 20000;
};

struct EngineOptions {
  Limits limits;
  // Prepared documents kept per engine (LRU), bounded both in number and in the bytes they hold
  // (text, AST, errors and kept plans).
  std::size_t document_cache_capacity = 1024;
  std::size_t document_cache_bytes = 32 * 1024 * 1024;
  // Off: __schema and __type are unknown fields, and errors give no "Did you mean" hints.
  bool introspection = true;
};

// What an operation is, for logs, metrics and the pool's status page: its type, its name (empty
// when anonymous) and the names of its root fields (not aliases; those inside inline fragments and
// named fragments included, @skip and @include not applied). Views into the document.
struct OperationSummary {
  OperationType type = OperationType::kQuery;
  std::string_view name;
  std::vector<std::string_view> root_fields;
};

// The result of Prepare: a parsed and validated document, or the errors that stop it. Immutable and
// shared between the cache and the requests that use it.
class PreparedDocument {
 public:
  virtual ~PreparedDocument() = default;
  // Parsed and passed validation and the limits.
  virtual bool valid() const = 0;
  // Syntax, validation or limit errors, empty when valid().
  virtual const std::vector<Error>& errors() const = 0;
  // The type of the operation `operation_name` selects (nullopt: the document's only operation), or
  // nullopt when no single operation can be determined.
  virtual std::optional<OperationType> OperationTypeFor(
      std::optional<std::string_view> operation_name) const = 0;
  // The operation `operation_name` selects, described; nullopt when OperationTypeFor is.
  virtual std::optional<OperationSummary> Describe(
      std::optional<std::string_view> /*operation_name*/) const {
    return std::nullopt;
  }
  // The memory the document holds (its source text, parsed tree, errors and the execution plans
  // it keeps), for callers that bound what they keep by bytes rather than by text size.
  virtual std::size_t held_bytes() const = 0;
};

struct ExecuteParams {
  std::optional<std::string_view> operation_name;
  const nlohmann::json* variables = nullptr;  // a JSON object, or null/absent
  RequestContext* context = nullptr;
  Value root_value;
  // The message of the request error Execute answers a subscription operation with: the transport
  // knows where subscriptions go instead.
  std::string_view subscription_refusal = "Subscription operations are not executed here.";
};

struct ExecutionResult {
  ExecutionResult() = default;
  ExecutionResult(bool executed, std::string data_json, std::string errors_json,
                  std::vector<std::string> codes = {})
      : has_data(executed),
        data(std::move(data_json)),
        errors(std::move(errors_json)),
        error_codes(std::move(codes)) {}

  // false: a request error: `errors` is set and there is no data, not even null.
  bool has_data = false;
  // The `data` value as JSON (an object, or null when execution failed at the root); empty
  // without data.
  std::string data;
  // The errors as a JSON list `[...]`; empty when there are none (never an empty list).
  std::string errors;
  // extensions.code of each error in `errors` that carries one, in their order: what a caller
  // logs and counts, without parsing `errors` again.
  std::vector<std::string> error_codes;

  // The response map: "errors" first (when any), then "data" (when has_data), then "extensions"
  // when `extensions` (a serialised JSON object) is not empty.
  std::string Body(std::string_view extensions = {}) const;
};

// A started subscription: the operation, its coerced variables and the source stream's topic, the
// value the root field's subscribe resolver returned (for netgraph, the Redis channel name).
class Subscription {
 public:
  virtual ~Subscription() = default;
  virtual const Value& topic() const = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Loads the schema in `sdl`. On a bad schema returns nullptr and fills `errors` (each with a
  // location in the SDL).
  static std::unique_ptr<Engine> Create(std::string_view sdl, const EngineOptions& options,
                                        std::vector<Error>* errors);

  // Binds a resolver to `Type.field`. Fails when the schema has no such field.
  virtual Status BindResolver(std::string_view coordinate, Resolver resolver) = 0;
  virtual Status BindTypeResolver(std::string_view abstract_type, TypeResolver resolver) = 0;
  // Binds the source-stream resolver of a subscription root field: it returns the topic to listen
  // to.
  virtual Status BindSubscribe(std::string_view coordinate, Resolver resolver) = 0;

  // Parses and validates `query`, from the cache when the same text was prepared before.
  virtual std::shared_ptr<const PreparedDocument> Prepare(std::string_view query) = 0;

  // Executes a query or mutation (mutation root fields serially). A subscription operation here is
  // a request error: subscriptions go through Subscribe.
  virtual ExecutionResult Execute(const PreparedDocument& document,
                                  const ExecuteParams& params) = 0;

  // The variable values Execute would run `document`'s operation (params.operation_name selects
  // it) with: an Object of the variables the operation defines, coerced from params.variables,
  // defaults applied, absent ones without a default left out. Variables the operation does not
  // define are not in it. nullopt when Execute would answer with a request error instead. For a
  // caller that keys something by what an operation depends on (core/api/answer_key.h).
  virtual std::optional<Value> CoerceVariables(const PreparedDocument& document,
                                               const ExecuteParams& params) = 0;

  // CreateSourceStream of the spec. On success returns the subscription; otherwise nullptr and
  // `request_error` holds the response to send (a request error or the subscribe resolver's error).
  virtual std::unique_ptr<Subscription> Subscribe(std::shared_ptr<const PreparedDocument> document,
                                                  const ExecuteParams& params,
                                                  ExecutionResult* request_error) = 0;
  // MapSourceToResponseEvent: executes the subscription's selection set with `event` as the root
  // field's value.
  virtual ExecutionResult ExecuteEvent(const Subscription& subscription, const Value& event,
                                       RequestContext* context) = 0;

  // The schema as SDL, without the built-in scalars and directives.
  virtual std::string PrintSchema() const = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_ENGINE_H_
