#include "core/auth/internal/jwks_fetch.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

#include "core/auth/internal/jwks_refresh_policy.h"

namespace netgraph::auth {

namespace {

// A JWKS is a few kilobytes; the same bound as a key file (core/auth/keys.cc).
constexpr std::size_t kMaxJwksBytes = 1 << 20;

struct EasyCloser {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct UrlCloser {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};

struct Exchange {
  std::string body;
  bool too_large = false;
  std::optional<std::chrono::seconds> max_age;
};

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  std::size_t bytes = size * count;
  if (exchange->body.size() + bytes > kMaxJwksBytes) {
    exchange->too_large = true;
    return 0;  // libcurl aborts the transfer
  }
  exchange->body.append(data, bytes);
  return bytes;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  std::string_view line(data, size * count);
  constexpr std::string_view kName = "cache-control:";
  if (line.size() > kName.size()) {
    std::string name(line.substr(0, kName.size()));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == kName) exchange->max_age = MaxAgeOf(line.substr(kName.size()));
  }
  return size * count;
}

void InitializeLibcurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

}  // namespace

Status CheckJwksUrl(const std::string& url) {
  std::unique_ptr<CURLU, UrlCloser> parsed(curl_url());
  if (!parsed) return Status::Internal("out of memory parsing a URL");
  if (curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return Status::InvalidArgument("NETGRAPH_JWT_JWKS_URL is not a URL: '" + url + "'");
  }
  char* scheme = nullptr;
  char* host = nullptr;
  curl_url_get(parsed.get(), CURLUPART_SCHEME, &scheme, 0);
  curl_url_get(parsed.get(), CURLUPART_HOST, &host, 0);
  const bool https = scheme != nullptr && std::string_view(scheme) == "https";
  const bool has_host = host != nullptr && *host != '\0';
  curl_free(scheme);
  curl_free(host);
  if (!https) {
    return Status::InvalidArgument("NETGRAPH_JWT_JWKS_URL must be an https:// URL, not '" + url +
                                   "'");
  }
  if (!has_host) return Status::InvalidArgument("NETGRAPH_JWT_JWKS_URL has no host: '" + url + "'");
  return Status::Ok();
}

Result<JwksDocument> FetchJwks(const JwksEndpoint& endpoint) {
  InitializeLibcurlOnce();
  std::unique_ptr<CURL, EasyCloser> handle(curl_easy_init());
  if (!handle) return Status::Internal("cannot create a libcurl handle");
  CURL* curl = handle.get();
  Exchange exchange;
  char error[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(curl, CURLOPT_URL, endpoint.url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!endpoint.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, endpoint.ca_file.c_str());
  // No signals: the pool's workers and netgraph-ws handle their own, and libcurl may run on a
  // thread.
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(endpoint.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &exchange);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "netgraph");

  CURLcode code = curl_easy_perform(curl);
  if (exchange.too_large) {
    return Status::Unavailable("the JWKS is larger than " + std::to_string(kMaxJwksBytes) +
                               " bytes");
  }
  if (code != CURLE_OK) {
    return Status::Unavailable(std::string(*error != '\0' ? error : curl_easy_strerror(code)));
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) return Status::Unavailable("HTTP status " + std::to_string(status));
  return JwksDocument{std::move(exchange.body), exchange.max_age};
}

}  // namespace netgraph::auth
