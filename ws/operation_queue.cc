#include "ws/operation_queue.h"

#include <utility>

#include "ws/messages.h"

namespace netgraph::ws {

std::optional<OperationQueue::Refusal> OperationQueue::Refuse(std::size_t bytes, const Usage& line,
                                                              const Usage& address,
                                                              const HeldBytes& elsewhere) const {
  // Each bound in number, then in memory, from the narrowest to the widest.
  struct Level {
    Bound bound;
    std::string_view whose;
    const Usage& usage;
    std::size_t held_elsewhere;
    std::size_t max_jobs;
    std::string_view jobs_setting;
    std::size_t max_bytes;
    std::string_view bytes_setting;
    std::string_view advice;
  };
  const Level levels[] = {
      {Bound::kConnection, "this connection", line, elsewhere.connection, per_connection_,
       "NETGRAPH_WS_MAX_SUBSCRIPTIONS", memory_.per_connection,
       "NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION", "wait for their results"},
      {Bound::kAddress, "your address", address, elsewhere.address, limits_.per_address,
       "NETGRAPH_WS_MAX_QUEUED_OPERATIONS_PER_ADDRESS", memory_.per_address,
       "NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS", "try again later"},
      {Bound::kProcess, "the server", total_, elsewhere.process, limits_.process,
       "NETGRAPH_WS_MAX_QUEUED_OPERATIONS", memory_.process, "NETGRAPH_WS_MAX_DOCUMENT_BYTES",
       "try again later"},
  };
  for (const Level& level : levels) {
    if (level.usage.jobs >= level.max_jobs) {
      return Refusal{level.bound, "Operation refused: " + std::string(level.whose) + " has " +
                                      std::to_string(level.usage.jobs) +
                                      " operations waiting for or running on the database, the "
                                      "most it may (" +
                                      std::string(level.jobs_setting) + "); " +
                                      std::string(level.advice)};
    }
    if (level.usage.bytes + level.held_elsewhere + bytes > level.max_bytes) {
      return Refusal{level.bound,
                     "Operation refused: the waiting operations and subscriptions of " +
                         std::string(level.whose) + " would hold more than " +
                         MebibytesText(level.max_bytes) + " (" + std::string(level.bytes_setting) +
                         "); this one needs " + std::to_string(bytes) + " bytes; " +
                         std::string(level.advice)};
    }
  }
  return std::nullopt;
}

std::optional<OperationQueue::Refusal> OperationQueue::Push(Job job, const HeldBytes& elsewhere) {
  static const Usage kNothing;
  auto known_line = lines_.find(job.connection);
  const std::string_view address_name =
      known_line != lines_.end() ? std::string_view(known_line->second.address) : job.address;
  auto known_address = addresses_.find(address_name);
  if (std::optional<Refusal> refusal = Refuse(
          job.bytes, known_line != lines_.end() ? known_line->second.usage : kNothing,
          known_address != addresses_.end() ? known_address->second.usage : kNothing, elsewhere)) {
    return refusal;
  }

  auto [line, new_line] = lines_.try_emplace(job.connection);
  if (new_line) line->second.address = job.address;
  auto address = addresses_.try_emplace(line->second.address).first;
  for (Usage* usage : {&line->second.usage, &address->second.usage, &total_}) {
    ++usage->jobs;
    usage->bytes += job.bytes;
  }
  line->second.waiting.push_back(std::move(job));
  ++waiting_;
  if (!line->second.in_turn) {
    line->second.in_turn = true;
    address->second.turns.push_back(line);
  }
  if (!address->second.in_turn) {
    address->second.in_turn = true;
    turns_.push_back(address);
  }
  return std::nullopt;
}

std::optional<OperationQueue::Job> OperationQueue::Take() {
  // The turns of lines whose jobs were all cancelled are passed over (and forgotten) here.
  while (!turns_.empty()) {
    Addresses::iterator address = turns_.front();
    turns_.pop_front();
    address->second.in_turn = false;
    std::optional<Job> job;
    while (!job && !address->second.turns.empty()) {
      Lines::iterator line = address->second.turns.front();
      address->second.turns.pop_front();
      line->second.in_turn = false;
      if (line->second.waiting.empty()) {
        ForgetIfIdle(line);
        continue;
      }
      job = std::move(line->second.waiting.front());
      line->second.waiting.pop_front();
      if (!line->second.waiting.empty()) {
        line->second.in_turn = true;
        address->second.turns.push_back(line);
      }
    }
    if (!address->second.turns.empty()) {
      address->second.in_turn = true;
      turns_.push_back(address);
    } else {
      ForgetIfIdle(address);
    }
    if (job) {
      --waiting_;
      ++running_;
      return job;
    }
  }
  return std::nullopt;
}

void OperationQueue::Finish(const Job& job) {
  --running_;
  Release(lines_.find(job.connection), {1, job.bytes});
}

OperationQueue::Removed OperationQueue::Cancel(ConnectionId connection, std::uint64_t ticket) {
  auto line = lines_.find(connection);
  if (line == lines_.end()) return {};
  std::deque<Job>& waiting = line->second.waiting;
  for (auto job = waiting.begin(); job != waiting.end(); ++job) {
    if (job->ticket != ticket) continue;
    Removed removed{1, job->bytes};
    waiting.erase(job);  // its request goes with it
    waiting_ -= removed.jobs;
    Release(line, removed);
    return removed;
  }
  return {};
}

OperationQueue::Removed OperationQueue::CancelAll(ConnectionId connection) {
  auto line = lines_.find(connection);
  if (line == lines_.end()) return {};
  Removed removed;
  for (const Job& job : line->second.waiting) {
    ++removed.jobs;
    removed.bytes += job.bytes;
  }
  line->second.waiting.clear();
  waiting_ -= removed.jobs;
  Release(line, removed);
  return removed;
}

HeldBytes OperationQueue::HeldBy(ConnectionId connection, std::string_view address) const {
  HeldBytes held;
  if (auto line = lines_.find(connection); line != lines_.end()) {
    held.connection = line->second.usage.bytes;
  }
  if (auto usage = addresses_.find(address); usage != addresses_.end()) {
    held.address = usage->second.usage.bytes;
  }
  held.process = total_.bytes;
  return held;
}

void OperationQueue::Release(Lines::iterator line, const Removed& jobs) {
  Addresses::iterator address = addresses_.find(line->second.address);
  for (Usage* usage : {&line->second.usage, &address->second.usage, &total_}) {
    usage->jobs -= jobs.jobs;
    usage->bytes -= jobs.bytes;
  }
  ForgetIfIdle(line);
  ForgetIfIdle(address);
}

void OperationQueue::ForgetIfIdle(Lines::iterator line) {
  if (line->second.usage.jobs == 0 && !line->second.in_turn) lines_.erase(line);
}

void OperationQueue::ForgetIfIdle(Addresses::iterator address) {
  if (address->second.usage.jobs == 0 && !address->second.in_turn) addresses_.erase(address);
}

}  // namespace netgraph::ws
