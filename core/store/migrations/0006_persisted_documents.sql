-- The documents clients registered through automatic persisted queries (core/api/
-- persisted_documents.h): the text of each, under the lower-case hex SHA-256 of that text, so a
-- document registered through one worker or host is found by every other. Only documents that
-- parsed and validated are inserted, and never more than NETGRAPH_PERSISTED_QUERIES_MAX_ROWS of
-- them (core/store/persisted_documents.h): a row is never changed, and deleting any (or all) of
-- them only costs the clients that use them one more round trip.
CREATE TABLE persisted_documents (
  sha256_hash TEXT PRIMARY KEY CHECK (sha256_hash ~ '^[0-9a-f]{64}$'),
  document TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
