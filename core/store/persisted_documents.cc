#include "core/store/persisted_documents.h"

namespace netgraph::store {
namespace {

constexpr Statement kFind{"persisted_documents_find",
                          "SELECT document FROM persisted_documents WHERE sha256_hash = $1"};
// The count bounds the table, not exactly: registrations racing at the bound may pass it by the
// number of connections, which is as good a bound. A row under the same hash counts as stored.
constexpr Statement kInsert{
    "persisted_documents_insert",
    "WITH inserted AS (INSERT INTO persisted_documents (sha256_hash, document) "
    "SELECT $1, $2 WHERE (SELECT count(*) FROM persisted_documents) < $3::bigint "
    "ON CONFLICT (sha256_hash) DO NOTHING RETURNING 1) "
    "SELECT EXISTS (SELECT 1 FROM inserted) "
    "OR EXISTS (SELECT 1 FROM persisted_documents WHERE sha256_hash = $1)"};

}  // namespace

Result<std::optional<std::string>> FindPersistedDocument(Connection& db,
                                                         std::string_view sha256_hash) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kFind, {std::string(sha256_hash)}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::string(rows.Text(0, 0)));
}

Result<bool> InsertPersistedDocument(Connection& db, std::string_view sha256_hash,
                                     std::string_view document, std::int64_t max_rows) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows,
      db.Run(kInsert, {std::string(sha256_hash), std::string(document), std::to_string(max_rows)}));
  if (rows.empty()) return Status::Internal("persisted_documents: insert returned no row");
  return rows.Bool(0, 0);
}

}  // namespace netgraph::store
