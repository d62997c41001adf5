#include "fcgi/http/graphql_http.h"

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
#include "core/domain/failure.h"
#include "core/status.h"
#include "fcgi/http/entity_tag.h"

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

// The answer to a GET or POST, which depends on the Accept header from here on.
HttpResponse AnswerGetOrPost(const HttpRequest& request, api::Service& service,
                             const GraphQLHttpOptions& options, GraphQLTrace* trace) {
  const bool is_get = request.method == "GET";
  std::optional<ResponseMediaType> media_type =
      NegotiateMediaType(request.has_accept, request.accept);
  if (!media_type) {
    return ErrorResponse(406, "Accept application/graphql-response+json or application/json");
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

  Result<api::OperationRequest> operation_request =
      api::OperationRequest::FromJson(std::move(body));
  if (!operation_request.ok()) return ErrorResponse(400, operation_request.status().message());

  // The letter of the media type in the answer's entity tag (entity_tag.h).
  const char representation = *media_type == ResponseMediaType::kGraphQLResponseJson ? 'g' : 'j';
  const bool conditional = is_get && !request.if_none_match.empty();
  api::OperationOptions run_options;
  if (conditional) {
    run_options.holds = [&](std::string_view digest) {
      return IfNoneMatchNames(request.if_none_match, EntityTag(representation, digest));
    };
  }
  run_options.queries_only = is_get;
  run_options.subscription_refusal = kSubscriptionOverHttp;
  if (trace != nullptr) {
    trace->operation_name = operation_request->operation_name;
    run_options.on_prepared = [trace](const api::OperationRun& run) {
      trace->prepare = run.prepare;
      trace->document = run.document;
      trace->operation = run.operation;
      if (trace->on_operation) trace->on_operation(*trace);
    };
  }
  api::OperationRun run =
      api::RunOperation(service, std::move(operation_request).value(),
                        api::Caller::WithAuthorization(request.authorization), run_options);
  if (run.mutation_refused) {
    HttpResponse response = ErrorResponse(405, "Cannot perform mutations over GET");
    response.SetHeader("Allow", "POST");
    return response;
  }
  if (trace != nullptr) {
    if (const auth::Identity* identity = run.scope != nullptr ? run.scope->identity() : nullptr) {
      const std::string& subject = identity->subject;
      trace->caller = crypto::HexEncode(crypto::Sha256(std::span(
                                            reinterpret_cast<const std::uint8_t*>(subject.data()),
                                            subject.size())))
                          .substr(0, 12);
    }
    trace->execute = run.execute;
    trace->executed = true;
    trace->has_errors = !run.result.errors.empty();
    trace->error_codes = std::move(run.result.error_codes);
    if (run.failure) trace->failure = domain::FailureText(*run.failure);
  }

  HttpResponse response;
  if (is_get && !run.digest.empty()) {
    const std::string tag = EntityTag(representation, run.digest);
    response.SetHeader("ETag", tag);
    response.SetHeader("Cache-Control",
                       options.public_max_age > 0
                           ? "public, max-age=" + std::to_string(options.public_max_age)
                           : std::string("no-cache"));
    if (run.not_modified || (conditional && IfNoneMatchNames(request.if_none_match, tag))) {
      response.status = 304;
      return response;
    }
  } else {
    response.SetHeader("Cache-Control", "no-store");
  }
  response.status = run.result.has_data || *media_type == ResponseMediaType::kJson ? 200 : 400;
  response.body = run.result.Body();
  response.SetHeader("Content-Type", ContentType(*media_type));
  return response;
}

}  // namespace

HttpResponse HandleGraphQL(const HttpRequest& request, api::Service& service,
                           const GraphQLHttpOptions& options, GraphQLTrace* trace) {
  if (request.method != "GET" && request.method != "POST") {
    HttpResponse response = ErrorResponse(405, "GraphQL requests use GET (queries) or POST");
    response.SetHeader("Allow", "GET, POST, OPTIONS");
    return response;
  }
  HttpResponse response = AnswerGetOrPost(request, service, options, trace);
  // The media type of the answer, or a 406 instead of it, follows the Accept header: a cache
  // between client and server keeps answers per Accept value.
  response.SetHeader("Vary", "Accept");
  return response;
}

}  // namespace netgraph::fcgi
