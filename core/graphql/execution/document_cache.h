// The per-engine cache of prepared documents: least recently used first out, keyed by the exact
// query text. Invalid documents are kept too, as their text and errors only (no AST), so a bad
// query sent in a loop costs a lookup. A hit is one hash of the text and one comparison; nothing
// is parsed again.
//
// Query texts are the client's choice, and a parsed document holds many times its text (AST
// arena, plans), so besides the entry count the cache bounds the bytes its documents really hold
// (PreparedDocumentImpl::held_bytes): many large distinct documents evict each other instead of
// growing the process. A document grows as executions keep plans for it; Account charges the
// growth.
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
  // A capacity or byte bound of 0 keeps nothing.
  DocumentCache(std::size_t capacity, std::size_t max_bytes)
      : capacity_(capacity), max_bytes_(max_bytes) {}

  // The document prepared from `query`, now the most recently used; null when absent.
  std::shared_ptr<const PreparedDocumentImpl> Find(std::string_view query);
  // Adds `document` under its source text, evicting the least recently used beyond the bounds.
  void Insert(std::shared_ptr<const PreparedDocumentImpl> document);
  // Charges what `document` holds now, when it is in the cache, evicting beyond the bounds.
  void Account(const PreparedDocumentImpl& document);
  void Clear();

  std::size_t size() const { return entries_.size(); }
  // The bytes the kept documents hold, as last accounted.
  std::size_t held_bytes() const { return held_bytes_; }

 private:
  using Entries = std::list<std::shared_ptr<const PreparedDocumentImpl>>;

  void Evict();

  std::size_t capacity_;
  std::size_t max_bytes_;
  std::size_t held_bytes_ = 0;  // the sum of the kept documents' accounted_bytes
  Entries entries_;             // most recently used first
  // Keys point into the documents' own source text.
  std::unordered_map<std::string_view, Entries::iterator> index_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_DOCUMENT_CACHE_H_
