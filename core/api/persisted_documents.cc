#include "core/api/persisted_documents.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <utility>

#include "core/log.h"
#include "core/store/persisted_documents.h"

namespace netgraph::api {
namespace {

// What one process remembers of the hashes it met: a pool worker must stay small (32 MiB RSS,
// issue 11), and a document is at most NETGRAPH_MAX_DOCUMENT_BYTES (100 KiB by default). The
// engine's document cache keeps the prepared documents themselves, by text.
constexpr std::size_t kKnownMaxEntries = 1024;
constexpr std::size_t kKnownMaxBytes = 4 * 1024 * 1024;

constexpr std::chrono::seconds kLogInterval{60};

graphql::ExecutionResult Refusal(std::string_view message, std::string_view code) {
  return {false,
          {},
          nlohmann::json::array({{{"message", message}, {"extensions", {{"code", code}}}}}).dump(),
          {std::string(code)}};
}

graphql::ExecutionResult NotAllowed() {
  return Refusal("Only trusted documents run here, and this document is not one of them",
                 kPersistedQueryNotAllowedCode);
}

}  // namespace

graphql::ExecutionResult PersistedQueryNotFound() {
  return Refusal(kPersistedQueryNotFoundMessage, kPersistedQueryNotFoundCode);
}

PersistedDocuments::PersistedDocuments(std::shared_ptr<const TrustedDocuments> trusted,
                                       std::int64_t max_rows)
    : trusted_(std::move(trusted)),
      max_rows_(max_rows),
      full_("persisted queries", kLogInterval, log::Error),
      lookup_failures_("persisted query lookup failed", kLogInterval, log::Error) {}

PersistedLookup PersistedDocuments::Resolve(store::Connection* db, OperationRequest& request) {
  PersistedLookup lookup;
  const bool text_sent = !request.persisted_hash || !request.query.empty();
  if (db == nullptr && trusted_ == nullptr && !text_sent &&
      Remembered(*request.persisted_hash) == nullptr) {
    lookup.needs_database = true;
    return lookup;
  }
  std::optional<std::string> hash = std::move(request.persisted_hash);
  request.persisted_hash.reset();
  if (trusted_ != nullptr) {
    const std::string* listed = trusted_->Find(hash ? *hash : DocumentHash(request.query));
    if (listed == nullptr) {
      lookup.refusal = NotAllowed();
    } else if (!text_sent) {
      request.query = *listed;
    }
    return lookup;
  }
  if (!hash) return lookup;
  if (text_sent) {
    if (Remembered(*hash) == nullptr) lookup.to_register = std::move(*hash);
    return lookup;
  }
  if (const std::string* known = Remembered(*hash)) {
    request.query = *known;
    return lookup;
  }
  Result<std::optional<std::string>> stored = store::FindPersistedDocument(*db, *hash);
  if (!stored.ok()) {
    lookup_failures_.Record(stored.status().message());
    lookup.refusal = PersistedQueryNotFound();
  } else if (!stored->has_value()) {
    lookup.refusal = PersistedQueryNotFound();
  } else {
    request.query = std::move(**stored);
    Remember(*hash, request.query);
  }
  return lookup;
}

void PersistedDocuments::Register(store::Connection& db, const std::string& hash,
                                  const std::string& text) {
  Result<bool> stored = store::InsertPersistedDocument(db, hash, text, max_rows_);
  if (!stored.ok()) {
    full_.Record("not stored: " + stored.status().message());
    return;
  }
  if (!*stored) {
    full_.Record("not stored: the table holds NETGRAPH_PERSISTED_QUERIES_MAX_ROWS (" +
                 std::to_string(max_rows_) + ") documents already");
    return;
  }
  Remember(hash, text);
}

const std::string* PersistedDocuments::Remembered(const std::string& hash) const {
  auto found = known_.find(hash);
  return found == known_.end() ? nullptr : &found->second;
}

void PersistedDocuments::Remember(const std::string& hash, const std::string& text) {
  if (text.size() > kKnownMaxBytes || !known_.emplace(hash, text).second) return;
  known_order_.push_back(hash);
  known_bytes_ += hash.size() + text.size();
  while (known_order_.size() > kKnownMaxEntries || known_bytes_ > kKnownMaxBytes) {
    auto oldest = known_.find(known_order_.front());
    known_bytes_ -= oldest->first.size() + oldest->second.size();
    known_.erase(oldest);
    known_order_.pop_front();
  }
}

}  // namespace netgraph::api
