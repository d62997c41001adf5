#include "core/graphql/execution/document_cache.h"

#include <utility>

namespace netgraph::graphql {

std::shared_ptr<const PreparedDocumentImpl> DocumentCache::Find(std::string_view query) {
  auto found = index_.find(query);
  if (found == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, found->second);
  return *found->second;
}

void DocumentCache::Insert(std::shared_ptr<const PreparedDocumentImpl> document) {
  const std::string_view key = document->source();
  if (capacity_ == 0 || key.size() > kMaxTextBytes) return;
  if (auto found = index_.find(key); found != index_.end()) {
    text_bytes_ -= key.size();
    entries_.erase(found->second);
    index_.erase(found);
  }
  text_bytes_ += key.size();
  entries_.push_front(std::move(document));
  index_.emplace(entries_.front()->source(), entries_.begin());
  while (entries_.size() > capacity_ || text_bytes_ > kMaxTextBytes) {
    const std::string_view evicted = entries_.back()->source();
    text_bytes_ -= evicted.size();
    index_.erase(evicted);
    entries_.pop_back();
  }
}

void DocumentCache::Clear() {
  index_.clear();
  entries_.clear();
  text_bytes_ = 0;
}

}  // namespace netgraph::graphql
