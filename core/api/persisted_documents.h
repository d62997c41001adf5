// Persisted documents: which text a request runs when it names its document by hash, and which
// texts may run at all. Both daemons go through here (core/api/operation.cc, and netgraph-ws's
// event loop for subscriptions: ws/graphql_backend.cc), so HTTP and WebSocket behave the same.
//
// Without a trusted manifest (automatic persisted queries, Apollo's protocol):
// - a request with only a hash runs the document registered under it: this process's memory first
//   (so a known hash costs no PostgreSQL round trip after its first use here), then the
//   persisted_documents table (core/store/persisted_documents.h), which every worker and host
//   shares; unknown, it is refused with PERSISTED_QUERY_NOT_FOUND, and the client sends the text;
// - a request with the hash and its text (OperationRequest::FromJson checked that they match)
//   registers the document, once it parsed and validated: nothing else is stored, so a client
//   cannot fill the table with junk. The table holds at most max_rows documents; past that, new
//   documents still run but are not stored (the clients that send them pay the extra round trip),
//   and an error is logged once a minute.
//
// With a trusted manifest (NETGRAPH_TRUSTED_DOCUMENTS, core/api/trusted_documents.h) only its
// documents run, named by hash or sent as text; anything else is refused with
// PERSISTED_QUERY_NOT_ALLOWED, and nothing is registered.
#ifndef NETGRAPH_CORE_API_PERSISTED_DOCUMENTS_H_
#define NETGRAPH_CORE_API_PERSISTED_DOCUMENTS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/operation_request.h"
#include "core/api/trusted_documents.h"
#include "core/graphql/engine.h"
#include "core/store/connection.h"
#include "core/throttled_log.h"

namespace netgraph::api {

// extensions.code of the refusals, and the message of the first: Apollo Client's persisted query
// link retries with the text on either.
inline constexpr std::string_view kPersistedQueryNotFoundCode = "PERSISTED_QUERY_NOT_FOUND";
inline constexpr std::string_view kPersistedQueryNotFoundMessage = "PersistedQueryNotFound";
inline constexpr std::string_view kPersistedQueryNotAllowedCode = "PERSISTED_QUERY_NOT_ALLOWED";

// The request error PERSISTED_QUERY_NOT_FOUND: the client is to send the text with the hash.
graphql::ExecutionResult PersistedQueryNotFound();

// What looking at a request's document came to.
struct PersistedLookup {
  // The request error to answer instead of running anything (has_data false, one error with a
  // code above); nullopt: the request's query is the text to run.
  std::optional<graphql::ExecutionResult> refusal;
  // The hash to register the text under once it prepared valid (Register); empty: nothing to do.
  std::string to_register;
  // Resolve was given no database and the hash is not in this process's memory: the request is
  // unchanged (its hash kept), for a Resolve with one to finish.
  bool needs_database = false;
};

class PersistedDocuments {
 public:
  // `trusted`: the manifest, or null for automatic persisted queries; `max_rows`: the bound on the
  // table (NETGRAPH_PERSISTED_QUERIES_MAX_ROWS).
  PersistedDocuments(std::shared_ptr<const TrustedDocuments> trusted, std::int64_t max_rows);

  // Fills in `request`'s query when it carried only a hash (from this process's memory, the
  // manifest or `db`), clears its persisted_hash, and says whether it may run. A database error
  // while looking up is a refusal with PERSISTED_QUERY_NOT_FOUND too (the client then sends the
  // text, which needs no database) and is logged. With `db` null (netgraph-ws's event loop, which
  // never waits on PostgreSQL) a hash this process does not remember is needs_database instead.
  PersistedLookup Resolve(store::Connection* db, OperationRequest& request);

  // Stores `text` under `hash` (PersistedLookup::to_register), in this process's memory and in
  // `db`; call it only once the text prepared valid. Failures are logged, never the caller's.
  void Register(store::Connection& db, const std::string& hash, const std::string& text);
  // Keeps `text` under `hash` in this process's memory only (netgraph-ws's loop, which leaves the
  // table to its database threads); call it only once the text prepared valid.
  void Remember(const std::string& hash, const std::string& text);

  bool trusted_only() const { return trusted_ != nullptr; }

 private:
  const std::string* Remembered(const std::string& hash) const;

  std::shared_ptr<const TrustedDocuments> trusted_;
  std::int64_t max_rows_;
  // Hashes known to this process, evicted oldest first past the bounds below
  // (persisted_documents.cc).
  std::map<std::string, std::string, std::less<>> known_;
  std::deque<std::string> known_order_;
  std::size_t known_bytes_ = 0;
  log::ThrottledLog full_;
  log::ThrottledLog lookup_failures_;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_PERSISTED_DOCUMENTS_H_
