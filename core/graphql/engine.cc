#include "core/graphql/engine.h"

#include <memory>
#include <string>
#include <utility>

#include "core/graphql/execution/bindings.h"
#include "core/graphql/execution/document_cache.h"
#include "core/graphql/execution/executor.h"
#include "core/graphql/execution/introspection.h"
#include "core/graphql/execution/prepared_document.h"
#include "core/graphql/language/parser.h"
#include "core/graphql/language/visitor.h"
#include "core/graphql/type/build_schema.h"
#include "core/graphql/type/schema_printer.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/validate.h"

namespace netgraph::graphql {

namespace {

// With introspection off, __schema and __type are reported as the unknown fields they then are
// (in a valid document they can only be selected on the query type).
class IntrospectionFieldFinder : public ast::Visitor {
 public:
  IntrospectionFieldFinder(const ast::Document& document, std::string_view query_type)
      : document_(document), query_type_(query_type) {}

  bool Enter(const ast::Node& node) override {
    const auto* field = node.As<ast::Field>();
    if (field != nullptr && (field->name.value == "__schema" || field->name.value == "__type")) {
      errors.push_back(Error{"Cannot query field \"" + std::string(field->name.value) +
                                 "\" on type \"" + std::string(query_type_) + "\".",
                             {document_.Locate(field->offset)},
                             {},
                             {}});
      return false;
    }
    return true;
  }

  std::vector<Error> errors;

 private:
  const ast::Document& document_;
  std::string_view query_type_;
};

class EngineImpl final : public Engine {
 public:
  EngineImpl(std::unique_ptr<const Schema> schema, const EngineOptions& options)
      : options_(options),
        bindings_(std::move(schema)),
        executor_(bindings_, ExecutorOptionsFor(options)),
        cache_(options.document_cache_capacity, options.document_cache_bytes) {
    BindIntrospection(&bindings_);
  }

  Status BindResolver(std::string_view coordinate, Resolver resolver) override {
    const Field* field = nullptr;
    if (Status s = FindBindableField("BindResolver", coordinate, &field); !s.ok()) return s;
    bindings_.resolvers[field] = std::move(resolver);
    cache_.Clear();  // plans hold the resolvers they found
    return Status::Ok();
  }

  Status BindTypeResolver(std::string_view abstract_type, TypeResolver resolver) override {
    const NamedType* type = bindings_.schema->FindType(abstract_type);
    if (type == nullptr || !IsAbstractType(*type)) {
      return Status::InvalidArgument(
          "BindTypeResolver: the schema has no interface or union named \"" +
          std::string(abstract_type) + "\"");
    }
    bindings_.type_resolvers[type] = std::move(resolver);
    return Status::Ok();
  }

  Status BindSubscribe(std::string_view coordinate, Resolver resolver) override {
    const Field* field = nullptr;
    if (Status s = FindBindableField("BindSubscribe", coordinate, &field); !s.ok()) return s;
    const NamedType* subscription = bindings_.schema->subscription_type();
    if (subscription == nullptr || subscription->FindField(field->name) != field) {
      return Status::InvalidArgument("BindSubscribe: " + std::string(coordinate) +
                                     " is not a field of the subscription root type");
    }
    bindings_.subscribers[field] = std::move(resolver);
    return Status::Ok();
  }

  std::shared_ptr<const PreparedDocument> Prepare(std::string_view query) override {
    const Limits& limits = options_.limits;
    if (query.size() > limits.max_document_bytes) {
      // Not cached: the text could be any size.
      return std::make_shared<const PreparedDocumentImpl>(
          this, std::string(), nullptr,
          std::vector<Error>{Error{"Document exceeds the maximum size of " +
                                       std::to_string(limits.max_document_bytes) +
                                       " bytes (max_document_bytes).",
                                   {},
                                   {},
                                   {}}});
    }
    if (std::shared_ptr<const PreparedDocumentImpl> cached = cache_.Find(query)) return cached;
    std::shared_ptr<const PreparedDocumentImpl> document = PrepareText(std::string(query));
    cache_.Insert(document);
    return document;
  }

  ExecutionResult Execute(const PreparedDocument& document, const ExecuteParams& params) override {
    const auto* prepared = dynamic_cast<const PreparedDocumentImpl*>(&document);
    if (prepared == nullptr || prepared->owner() != this) return ForeignDocument();
    ExecutionResult result = executor_.Execute(*prepared, params);
    if (prepared->held_bytes() != prepared->accounted_bytes()) cache_.Account(*prepared);
    return result;
  }

  std::optional<Value> CoerceVariables(const PreparedDocument& document,
                                       const ExecuteParams& params) override {
    const auto* prepared = dynamic_cast<const PreparedDocumentImpl*>(&document);
    if (prepared == nullptr || prepared->owner() != this) return std::nullopt;
    return executor_.CoerceVariables(*prepared, params);
  }

  std::unique_ptr<Subscription> Subscribe(std::shared_ptr<const PreparedDocument> document,
                                          const ExecuteParams& params,
                                          ExecutionResult* request_error) override {
    auto prepared = std::dynamic_pointer_cast<const PreparedDocumentImpl>(std::move(document));
    if (prepared == nullptr || prepared->owner() != this) {
      *request_error = ForeignDocument();
      return nullptr;
    }
    return executor_.Subscribe(std::move(prepared), params, request_error);
  }

  ExecutionResult ExecuteEvent(const Subscription& subscription, const Value& event,
                               RequestContext* context) override {
    return executor_.ExecuteEvent(subscription, event, context);
  }

  std::string PrintSchema() const override { return graphql::PrintSchema(*bindings_.schema); }

 private:
  static ExecutorOptions ExecutorOptionsFor(const EngineOptions& options) {
    ExecutorOptions executor_options;
    if (options.limits.max_cost != 0) executor_options.max_cost = options.limits.max_cost;
    executor_options.hide_suggestions = !options.introspection;
    return executor_options;
  }

  static ExecutionResult ForeignDocument() {
    return ExecutionResult{
        false, {}, "[{\"message\":\"The document was not prepared by this engine.\"}]"};
  }

  // Parses and validates `query`, within the token, depth, alias and introspection depth limits.
  std::shared_ptr<const PreparedDocumentImpl> PrepareText(std::string query) {
    const Limits& limits = options_.limits;
    ParseOptions parse_options;
    parse_options.max_tokens = limits.max_tokens;
    Error syntax_error;
    std::unique_ptr<const ast::Document> document = Parse(query, parse_options, &syntax_error);
    if (!document) {
      return std::make_shared<const PreparedDocumentImpl>(
          this, std::move(query), nullptr, std::vector<Error>{std::move(syntax_error)});
    }
    ValidationOptions validation_options;
    validation_options.max_introspection_depth = limits.max_introspection_depth;
    validation_options.max_depth = limits.max_depth;
    validation_options.max_aliases = limits.max_aliases;
    std::vector<Error> errors = Validate(*bindings_.schema, *document, validation_options);
    if (errors.empty() && !options_.introspection) {
      IntrospectionFieldFinder finder(*document, bindings_.schema->query_type()->name);
      ast::Walk(*document, &finder);
      errors = std::move(finder.errors);
    }
    if (!options_.introspection) {
      for (Error& error : errors) StripSuggestions(&error.message);
    }
    if (!errors.empty()) {
      // Kept as its text and errors only: the AST of an invalid document is never used again.
      return std::make_shared<const PreparedDocumentImpl>(this, std::move(query), nullptr,
                                                          std::move(errors));
    }
    return std::make_shared<const PreparedDocumentImpl>(this, std::string(), std::move(document),
                                                        std::move(errors));
  }

  // The field `coordinate` ("Type.field") names, for binding a resolver to it.
  Status FindBindableField(std::string_view operation, std::string_view coordinate,
                           const Field** field) const {
    const std::size_t dot = coordinate.find('.');
    const NamedType* type = dot == std::string_view::npos
                                ? nullptr
                                : bindings_.schema->FindType(coordinate.substr(0, dot));
    *field = type == nullptr || type->kind != TypeKind::kObject || type->is_introspection()
                 ? nullptr
                 : type->FindField(coordinate.substr(dot + 1));
    if (*field == nullptr) {
      return Status::InvalidArgument(std::string(operation) +
                                     ": the schema has no object field \"" +
                                     std::string(coordinate) + "\"");
    }
    return Status::Ok();
  }

  const EngineOptions options_;
  Bindings bindings_;
  Executor executor_;
  DocumentCache cache_;
};

}  // namespace

std::string ExecutionResult::Body(std::string_view extensions) const {
  std::string body;
  body.reserve(errors.size() + data.size() + extensions.size() + 32);
  body += '{';
  if (!errors.empty()) body.append("\"errors\":").append(errors);
  if (has_data) {
    if (!errors.empty()) body += ',';
    body.append("\"data\":").append(data);
  }
  if (!extensions.empty()) {
    if (body.size() > 1) body += ',';
    body.append("\"extensions\":").append(extensions);
  }
  body += '}';
  return body;
}

std::unique_ptr<Engine> Engine::Create(std::string_view sdl, const EngineOptions& options,
                                       std::vector<Error>* errors) {
  std::unique_ptr<const Schema> schema = BuildSchema(std::string(sdl), errors);
  if (!schema) return nullptr;
  return std::make_unique<EngineImpl>(std::move(schema), options);
}

}  // namespace netgraph::graphql
