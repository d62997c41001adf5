// The persisted_documents table (core/store/migrations/0006_persisted_documents.sql): the documents
// clients registered through automatic persisted queries, by the lower-case hex SHA-256 of their
// text. core/api/persisted_documents.h decides what is stored; this only reads and writes rows.
#ifndef NETGRAPH_CORE_STORE_PERSISTED_DOCUMENTS_H_
#define NETGRAPH_CORE_STORE_PERSISTED_DOCUMENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

// The document stored under `sha256_hash`, or nullopt when there is none.
Result<std::optional<std::string>> FindPersistedDocument(Connection& db,
                                                         std::string_view sha256_hash);

// Stores `document` under `sha256_hash` unless the table holds `max_rows` documents already (or
// one under that hash: a row is never replaced). True when it was stored or was there already;
// false when the table is full.
Result<bool> InsertPersistedDocument(Connection& db, std::string_view sha256_hash,
                                     std::string_view document, std::int64_t max_rows);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_PERSISTED_DOCUMENTS_H_
