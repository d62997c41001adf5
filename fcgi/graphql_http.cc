#include "fcgi/graphql_http.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/crypto/digest.h"
#include "core/crypto/hex.h"
#include "core/status.h"

namespace netgraph::fcgi {
namespace {

constexpr std::string_view kGraphQLResponseJson = "application/graphql-response+json";
constexpr std::string_view kJson = "application/json";
// Subscriptions are served by netgraph-ws, which nginx reaches on the same path.
constexpr std::string_view kSubscriptionOverHttp =
    "Subscriptions are not supported over HTTP; subscribe over WebSocket at /graphql.";

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits `text` at `separator`, trimming each part.
std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    std::size_t at = text.find(separator);
    parts.push_back(Trim(text.substr(0, at)));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// A media type and its parameters, lower-cased: "application/json; charset=utf-8".
struct MediaType {
  std::string essence;
  std::vector<std::pair<std::string, std::string>> parameters;

  static MediaType Parse(std::string_view text) {
    std::vector<std::string_view> parts = Split(text, ';');
    MediaType type{Lower(parts[0]), {}};
    for (std::size_t i = 1; i < parts.size(); ++i) {
      std::size_t eq = parts[i].find('=');
      if (eq == std::string_view::npos) continue;
      std::string_view value = Trim(parts[i].substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
        value = value.substr(1, value.size() - 2);
      }
      type.parameters.emplace_back(Lower(Trim(parts[i].substr(0, eq))), Lower(value));
    }
    return type;
  }

  const std::string* Parameter(std::string_view name) const {
    for (const auto& [key, value] : parameters) {
      if (key == name) return &value;
    }
    return nullptr;
  }
};

std::string ContentType(ResponseMediaType type) {
  return std::string(type == ResponseMediaType::kGraphQLResponseJson ? kGraphQLResponseJson
                                                                     : kJson) +
         "; charset=utf-8";
}

// The GraphQL request parameters, checked for type. JSON null counts as absent.
struct GraphQLParams {
  std::string query;
  std::optional<std::string> operation_name;
  nlohmann::json variables;  // null or an object
};

// The read cache's key for the whole answer to `params` (HandleGraphQL keeps those of public
// reads): everything the answer depends on besides the data, an operation name given as empty told
// from none given.
std::string AnswerKey(const GraphQLParams& params) {
  std::string key = "answer\n";
  key += params.query;
  key += params.operation_name ? "\n+" + *params.operation_name : std::string("\n-");
  key += '\n';
  if (!params.variables.is_null()) key += params.variables.dump();
  return key;
}

// Checks the request's parameters into `params`; an error's message is the 400's.
Status ReadParams(const nlohmann::json& body, GraphQLParams* params) {
  if (!body.is_object()) return Status::InvalidArgument("JSON body must be an object");
  auto query = body.find("query");
  if (query == body.end() || query->is_null()) return Status::InvalidArgument("Missing query");
  if (!query->is_string()) {
    return Status::InvalidArgument("The \"query\" parameter must be a string");
  }
  params->query = query->get<std::string>();
  if (auto name = body.find("operationName"); name != body.end() && !name->is_null()) {
    if (!name->is_string()) {
      return Status::InvalidArgument("The \"operationName\" parameter must be a string");
    }
    params->operation_name = name->get<std::string>();
  }
  if (auto variables = body.find("variables"); variables != body.end() && !variables->is_null()) {
    if (!variables->is_object()) {
      return Status::InvalidArgument("The \"variables\" parameter must be a JSON object");
    }
    params->variables = *variables;
  }
  if (auto extensions = body.find("extensions");
      extensions != body.end() && !extensions->is_null()) {
    if (!extensions->is_object()) {
      return Status::InvalidArgument("The \"extensions\" parameter must be a JSON object");
    }
  }
  return Status::Ok();
}

// GET parameters as the JSON body a POST would carry: variables and extensions are JSON text; an
// empty value counts as absent. An error's message is the 400's.
Result<nlohmann::json> ReadGetParams(std::string_view query_string, std::size_t max_json_depth) {
  nlohmann::json body = nlohmann::json::object();
  for (std::string_view pair : Split(query_string, '&')) {
    if (pair.empty()) continue;
    std::size_t eq = pair.find('=');
    std::optional<std::string> key = DecodeFormComponent(pair.substr(0, eq));
    std::optional<std::string> value =
        DecodeFormComponent(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (!key || !value) return Status::InvalidArgument("Malformed URL query string");
    if (body.contains(*key)) continue;  // the first occurrence wins
    if (*key == "variables" || *key == "extensions") {
      if (value->empty()) continue;
      api::ClientJson parsed = api::ParseClientJson(*value, max_json_depth);
      if (parsed.problem == api::ClientJson::Problem::kTooDeep) {
        return Status::InvalidArgument("The \"" + *key + "\" parameter nests too deeply");
      }
      if (!parsed.ok()) {
        return Status::InvalidArgument("The \"" + *key + "\" parameter is not valid JSON");
      }
      body[*key] = std::move(parsed.value);
    } else {
      body[*key] = *value;
    }
  }
  return body;
}

}  // namespace

std::optional<ResponseMediaType> NegotiateMediaType(bool has_accept, std::string_view accept) {
  if (!has_accept || Trim(accept).empty()) return ResponseMediaType::kJson;
  std::optional<ResponseMediaType> best;
  double best_q = 0.0;
  for (std::string_view range : Split(accept, ',')) {
    if (range.empty()) continue;
    MediaType type = MediaType::Parse(range);
    std::optional<ResponseMediaType> candidate;
    if (type.essence == kGraphQLResponseJson) {
      candidate = ResponseMediaType::kGraphQLResponseJson;
    } else if (type.essence == kJson || type.essence == "application/*" || type.essence == "*/*") {
      candidate = ResponseMediaType::kJson;
    }
    if (!candidate) continue;
    double q = 1.0;
    if (const std::string* qvalue = type.Parameter("q")) q = std::strtod(qvalue->c_str(), nullptr);
    if (q > best_q) {  // on a tie the earlier range wins
      best = candidate;
      best_q = q;
    }
  }
  return best;
}

std::optional<std::string> DecodeFormComponent(std::string_view encoded) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(encoded.size());
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    char c = encoded[i];
    if (c == '+') {
      out.push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= encoded.size()) return std::nullopt;
      int high = hex(encoded[i + 1]);
      int low = hex(encoded[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

// extensions.code of each error in `errors` (a JSON list), and the `error` text of the first
// result object that failed ({"success":false,"error":...} under a root field of `data`). Parsed
// only when the text says there is something to find, so a plain success costs two searches.
void NoteOutcome(const graphql::ExecutionResult& result, GraphQLTrace* trace) {
  trace->executed = true;
  trace->has_errors = !result.errors.empty();
  if (!result.errors.empty()) {
    nlohmann::json errors = nlohmann::json::parse(result.errors, nullptr, false);
    if (errors.is_array()) {
      for (const nlohmann::json& error : errors) {
        const nlohmann::json* code = nullptr;
        if (auto extensions = error.find("extensions");
            extensions != error.end() && extensions->is_object()) {
          if (auto found = extensions->find("code"); found != extensions->end()) code = &*found;
        }
        if (code != nullptr && code->is_string())
          trace->error_codes.push_back(code->get<std::string>());
      }
    }
  }
  // Boyer-Moore-Horspool: std::string::find stops at every quote of the JSON for this needle.
  static constexpr std::string_view kFailed = "\"success\":false";
  static const std::boyer_moore_horspool_searcher failed(kFailed.begin(), kFailed.end());
  if (std::search(result.data.begin(), result.data.end(), failed) == result.data.end()) return;
  nlohmann::json data = nlohmann::json::parse(result.data, nullptr, false);
  if (!data.is_object()) return;
  for (const auto& [field, value] : data.items()) {
    if (!value.is_object()) continue;
    auto error = value.find("error");
    if (error != value.end() && error->is_string()) {
      trace->failure = error->get<std::string>();
      return;
    }
  }
}

}  // namespace

HttpResponse HandleGraphQL(const HttpRequest& request, api::Service& service,
                           const GraphQLHttpOptions& options, GraphQLTrace* trace) {
  const bool is_get = request.method == "GET";
  if (!is_get && request.method != "POST") {
    HttpResponse response = ErrorResponse(405, "GraphQL requests use GET (queries) or POST");
    response.SetHeader("Allow", "GET, POST, OPTIONS");
    return response;
  }
  std::optional<ResponseMediaType> media_type =
      NegotiateMediaType(request.has_accept, request.accept);
  if (!media_type) {
    HttpResponse response =
        ErrorResponse(406, "Accept application/graphql-response+json or application/json");
    return response;
  }

  nlohmann::json body;
  if (is_get) {
    Result<nlohmann::json> params = ReadGetParams(request.query_string, options.max_json_depth);
    if (!params.ok()) return ErrorResponse(400, params.status().message());
    body = std::move(params).value();
  } else {
    if (request.content_type.empty()) {
      return ErrorResponse(415, "Missing Content-Type: send application/json");
    }
    MediaType content_type = MediaType::Parse(request.content_type);
    if (content_type.essence != kJson) {
      return ErrorResponse(415, "Unsupported Content-Type: send application/json");
    }
    if (const std::string* charset = content_type.Parameter("charset");
        charset != nullptr && *charset != "utf-8") {
      return ErrorResponse(415, "Unsupported charset: send UTF-8");
    }
    if (request.body.size() > options.max_body_bytes) {
      return ErrorResponse(
          413, "Request body exceeds " + std::to_string(options.max_body_bytes) + " bytes");
    }
    api::ClientJson parsed = api::ParseClientJson(request.body, options.max_json_depth);
    if (parsed.problem == api::ClientJson::Problem::kTooDeep) {
      return ErrorResponse(400, "JSON body nests too deeply");
    }
    if (!parsed.ok()) return ErrorResponse(400, "Unparsable JSON body");
    body = std::move(parsed.value);
  }

  GraphQLParams params;
  if (Status read = ReadParams(body, &params); !read.ok()) {
    return ErrorResponse(400, read.message());
  }

  graphql::Engine& engine = service.engine();
  const auto prepare_start = std::chrono::steady_clock::now();
  std::shared_ptr<const graphql::PreparedDocument> document = engine.Prepare(params.query);
  std::optional<std::string_view> operation_name;
  if (params.operation_name) operation_name = *params.operation_name;
  const std::optional<graphql::OperationSummary> operation = document->Describe(operation_name);
  if (trace != nullptr) {
    trace->prepare = std::chrono::steady_clock::now() - prepare_start;
    trace->document = document;
    trace->operation = operation;
    trace->operation_name = params.operation_name;
    if (trace->on_operation) trace->on_operation(*trace);
  }
  if (is_get && document->valid() &&
      document->OperationTypeFor(operation_name) == graphql::OperationType::kMutation) {
    HttpResponse response = ErrorResponse(405, "Cannot perform mutations over GET");
    response.SetHeader("Allow", "POST");
    return response;
  }

  std::unique_ptr<api::RequestScope> scope = service.NewRequest(request.authorization);
  if (trace != nullptr && scope->identity() != nullptr) {
    const std::string& subject = scope->identity()->subject;
    trace->caller = crypto::HexEncode(
                        crypto::Sha256(std::span(
                            reinterpret_cast<const std::uint8_t*>(subject.data()), subject.size())))
                        .substr(0, 12);
  }
  graphql::ExecuteParams execute;
  execute.operation_name = operation_name;
  execute.variables = params.variables.is_null() ? nullptr : &params.variables;
  execute.context = scope.get();
  execute.subscription_refusal = kSubscriptionOverHttp;
  const auto execute_start = std::chrono::steady_clock::now();
  graphql::ExecutionResult result;
  HttpResponse response;
  // An anonymous query of public reads only: its whole answer, as bytes, is kept in the read cache
  // beside the answers of its fields and is valid exactly as long as they are (read_cache.h), so
  // a repeated public read skips execution and serialisation too. Answers with errors are not kept.
  if (request.authorization.empty() && service.read_cache().enabled() && operation.has_value() &&
      api::Service::AnsweredFromReadCache(*operation)) {
    Result<graphql::Value> kept = service.read_cache().Get(
        AnswerKey(params), api::ReadCache::Clock::now(), [&]() -> Result<api::ReadCache::Fresh> {
          result = engine.Execute(*document, execute);
          if (!result.has_data || !result.errors.empty()) {
            return Status::FailedPrecondition("an answer with errors is not kept");
          }
          return api::ReadCache::Fresh{graphql::Value::String(result.Body()), std::nullopt};
        });
    if (kept.ok()) {
      response.body = kept->as_string();
      result.has_data = true;
    }
  } else {
    result = engine.Execute(*document, execute);
  }
  if (response.body.empty()) response.body = result.Body();
  if (trace != nullptr) {
    trace->execute = std::chrono::steady_clock::now() - execute_start;
    NoteOutcome(result, trace);
  }

  response.status = result.has_data || *media_type == ResponseMediaType::kJson ? 200 : 400;
  response.SetHeader("Content-Type", ContentType(*media_type));
  response.SetHeader("Cache-Control", "no-store");
  return response;
}

}  // namespace netgraph::fcgi
