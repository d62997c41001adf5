#include "core/graphql/execution/document_cache.h"

#include "core/telemetry.h"

#include <utility>

namespace netgraph::graphql {
namespace {

// Summed over a pool's workers on its /metrics.
const telemetry::Counter kHits({"netgraph_document_cache_hits_total",
                                telemetry::MetricType::kCounter,
                                "Prepared-document cache hits, summed over the workers.", ""});
const telemetry::Counter kMisses(
    {"netgraph_document_cache_misses_total", telemetry::MetricType::kCounter,
     "Prepared-document cache misses (documents parsed and validated).", ""});
const telemetry::Counter kEvictions({"netgraph_document_cache_evictions_total",
                                     telemetry::MetricType::kCounter,
                                     "Documents evicted from the prepared-document caches.", ""});
const telemetry::Counter kBytes(
    {"netgraph_document_cache_bytes", telemetry::MetricType::kGauge,
     "Memory the prepared-document caches hold, summed over the workers (and past workers' last "
     "value until their slot is reused).",
     ""});

}  // namespace

std::shared_ptr<const PreparedDocumentImpl> DocumentCache::Find(std::string_view query) {
  auto found = index_.find(query);
  if (found == index_.end()) {
    kMisses.Add();
    return nullptr;
  }
  kHits.Add();
  entries_.splice(entries_.begin(), entries_, found->second);
  return *found->second;
}

void DocumentCache::Insert(std::shared_ptr<const PreparedDocumentImpl> document) {
  const std::size_t bytes = document->held_bytes();
  document->set_accounted_bytes(bytes);
  if (capacity_ == 0 || bytes > max_bytes_) return;
  const std::string_view key = document->source();
  if (auto found = index_.find(key); found != index_.end()) {
    held_bytes_ -= (*found->second)->accounted_bytes();
    entries_.erase(found->second);
    index_.erase(found);
  }
  held_bytes_ += bytes;
  entries_.push_front(std::move(document));
  index_.emplace(entries_.front()->source(), entries_.begin());
  Evict();
}

void DocumentCache::Account(const PreparedDocumentImpl& document) {
  const std::size_t bytes = document.held_bytes();
  auto found = index_.find(document.source());
  if (found != index_.end() && found->second->get() == &document) {
    held_bytes_ = held_bytes_ - document.accounted_bytes() + bytes;
  }
  document.set_accounted_bytes(bytes);
  Evict();
}

void DocumentCache::Evict() {
  while (!entries_.empty() && (entries_.size() > capacity_ || held_bytes_ > max_bytes_)) {
    held_bytes_ -= entries_.back()->accounted_bytes();
    index_.erase(entries_.back()->source());
    entries_.pop_back();
    kEvictions.Add();
  }
  kBytes.Set(held_bytes_);
}

void DocumentCache::Clear() {
  index_.clear();
  entries_.clear();
  held_bytes_ = 0;
  kBytes.Set(0);
}

}  // namespace netgraph::graphql
