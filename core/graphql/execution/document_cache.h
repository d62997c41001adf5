// The per-engine cache of prepared documents: least recently used first out, keyed by the exact
// query text. Invalid documents are kept too, so a bad query sent in a loop costs a lookup. A hit
// is one hash of the text and one comparison; nothing is parsed again.
//
// Query texts are the client's choice, so besides the entry count the cache bounds the text it
// keeps (kMaxTextBytes; a document's AST and plans take a small multiple of its text): many
// large distinct documents evict each other instead of growing the process.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_DOCUMENT_CACHE_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_DOCUMENT_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "core/graphql/execution/prepared_document.h"

namespace netgraph::graphql {

class DocumentCache {
 public:
  static constexpr std::size_t kMaxTextBytes = 16 * 1024 * 1024;

  // A capacity of 0 keeps nothing.
  explicit DocumentCache(std::size_t capacity) : capacity_(capacity) {}

  // The document prepared from `query`, now the most recently used; null when absent.
  std::shared_ptr<const PreparedDocumentImpl> Find(std::string_view query);
  // Adds `document` under its source text, evicting the least recently used beyond capacity.
  void Insert(std::shared_ptr<const PreparedDocumentImpl> document);
  void Clear();

  std::size_t size() const { return entries_.size(); }

 private:
  using Entries = std::list<std::shared_ptr<const PreparedDocumentImpl>>;

  std::size_t capacity_;
  std::size_t text_bytes_ = 0;  // of the documents kept
  Entries entries_;             // most recently used first
  // Keys point into the documents' own source text.
  std::unordered_map<std::string_view, Entries::iterator> index_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_DOCUMENT_CACHE_H_
