// The operation queue of the database threads (ws/operation_queue.h): a job counts against its
// connection, address and the process until a thread has finished it; a job cancelled while it
// waits is dropped at once and never taken; the bounds refuse with a message naming their
// setting; threads take jobs by address, then by connection, in turn.
#include "ws/operation_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace netgraph::ws {
namespace {

using Job = OperationQueue::Job;
using Bound = OperationQueue::Bound;

constexpr std::size_t kMiB = 1024 * 1024;

class OperationQueueTest : public ::testing::Test {
 protected:
  static OperationLimits Limits() {
    OperationLimits limits;
    limits.process = 8;
    limits.per_address = 5;
    return limits;
  }
  static MemoryLimits Memory() {
    MemoryLimits memory;
    memory.per_connection = 2 * kMiB;
    memory.per_address = 4 * kMiB;
    memory.process = 6 * kMiB;
    return memory;
  }

  // A job of `connection` at `address` named `ticket`; its work holds `request` (to see when the
  // request is freed).
  static Job MakeJob(OperationQueue::ConnectionId connection, const std::string& address,
                     std::uint64_t ticket, std::size_t bytes = 100,
                     std::shared_ptr<int> request = nullptr) {
    Job job;
    job.connection = connection;
    job.address = address;
    job.ticket = ticket;
    job.bytes = bytes;
    job.work = [request](api::Service&) { return StartResult{}; };
    return job;
  }

  std::optional<OperationQueue::Refusal> Push(OperationQueue::ConnectionId connection,
                                              const std::string& address, std::uint64_t ticket,
                                              std::size_t bytes = 100,
                                              const HeldBytes& elsewhere = {}) {
    return queue_.Push(MakeJob(connection, address, ticket, bytes), elsewhere);
  }

  // The tickets of every job Take gives, each finished at once.
  std::vector<std::uint64_t> TakeAll() {
    std::vector<std::uint64_t> tickets;
    while (std::optional<Job> job = queue_.Take()) {
      tickets.push_back(job->ticket);
      queue_.Finish(*job);
    }
    return tickets;
  }

  OperationQueue queue_{Limits(), 3, Memory()};
};

TEST_F(OperationQueueTest, ConnectionsOfAnAddressTakeTurns) {
  for (std::uint64_t ticket : {11, 12, 13}) ASSERT_FALSE(Push(1, "192.0.2.1", ticket));
  ASSERT_FALSE(Push(2, "192.0.2.1", 21));
  EXPECT_EQ(TakeAll(), (std::vector<std::uint64_t>{11, 21, 12, 13}));
}

TEST_F(OperationQueueTest, AddressesTakeTurnsWhateverTheirConnections) {
  OperationQueue queue(OperationLimits{100, 100}, 100, MemoryLimits{});
  // Ten connections of one address, three jobs each, before another address's one job.
  for (OperationQueue::ConnectionId c = 1; c <= 10; ++c) {
    for (std::uint64_t j = 0; j < 3; ++j) {
      ASSERT_FALSE(queue.Push(MakeJob(c, "192.0.2.1", c * 10 + j), {}));
    }
  }
  ASSERT_FALSE(queue.Push(MakeJob(99, "198.51.100.7", 990), {}));
  std::vector<std::uint64_t> order;
  while (std::optional<Job> job = queue.Take()) order.push_back(job->ticket);
  ASSERT_EQ(order.size(), 31u);
  // The other address waits for one job of the busy one, not thirty.
  EXPECT_EQ(order[0], 10u);
  EXPECT_EQ(order[1], 990u);
  // The busy address's connections in turn: the first job of each, then the second of each.
  EXPECT_EQ((std::vector<std::uint64_t>(order.begin() + 2, order.begin() + 11)),
            (std::vector<std::uint64_t>{20, 30, 40, 50, 60, 70, 80, 90, 100}));
  EXPECT_EQ(order[11], 11u);
  EXPECT_EQ(queue.waiting(), 0u);
  EXPECT_EQ(queue.running(), 31u);
}

TEST_F(OperationQueueTest, ACancelledWaitingJobIsFreedAtOnceAndNeverTaken) {
  auto request = std::make_shared<int>(0);
  ASSERT_FALSE(queue_.Push(MakeJob(1, "192.0.2.1", 11, 700, request), {}));
  ASSERT_FALSE(Push(1, "192.0.2.1", 12));
  EXPECT_EQ(request.use_count(), 2);
  OperationQueue::Removed removed = queue_.Cancel(1, 11);
  EXPECT_EQ(removed.jobs, 1u);
  EXPECT_EQ(removed.bytes, 700u);
  EXPECT_EQ(request.use_count(), 1) << "the cancelled job's request is still held";
  EXPECT_EQ(queue_.waiting(), 1u);
  EXPECT_EQ(queue_.HeldBy(1, "192.0.2.1").connection, 100u);
  EXPECT_EQ(TakeAll(), (std::vector<std::uint64_t>{12}));
  // Cancelling again, or an unknown ticket or connection, removes nothing.
  EXPECT_EQ(queue_.Cancel(1, 11).jobs, 0u);
  EXPECT_EQ(queue_.Cancel(7, 1).jobs, 0u);
}

TEST_F(OperationQueueTest, ARunningJobCountsUntilItIsFinishedEvenWhenCancelled) {
  ASSERT_FALSE(Push(1, "192.0.2.1", 11, kMiB));
  std::optional<Job> running = queue_.Take();
  ASSERT_TRUE(running);
  // The client sent complete: the running job cannot be removed, and still counts.
  EXPECT_EQ(queue_.Cancel(1, 11).jobs, 0u);
  EXPECT_EQ(queue_.running(), 1u);
  EXPECT_EQ(queue_.HeldBy(1, "192.0.2.1").connection, kMiB);
  ASSERT_FALSE(Push(1, "192.0.2.1", 12));
  ASSERT_FALSE(Push(1, "192.0.2.1", 13));
  std::optional<OperationQueue::Refusal> refused = Push(1, "192.0.2.1", 14);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kConnection);
  EXPECT_NE(refused->message.find("NETGRAPH_WS_MAX_SUBSCRIPTIONS"), std::string::npos)
      << refused->message;
  queue_.Finish(*running);
  EXPECT_EQ(queue_.running(), 0u);
  EXPECT_EQ(queue_.HeldBy(1, "192.0.2.1").connection, 200u);
  EXPECT_FALSE(Push(1, "192.0.2.1", 14));
}

TEST_F(OperationQueueTest, AClosedConnectionsWaitingJobsGoAndItsRunningOnesStillCount) {
  ASSERT_FALSE(Push(1, "192.0.2.1", 11));
  std::optional<Job> running = queue_.Take();
  ASSERT_FALSE(Push(1, "192.0.2.1", 12));
  ASSERT_FALSE(Push(1, "192.0.2.1", 13));
  ASSERT_FALSE(Push(2, "192.0.2.1", 21));
  OperationQueue::Removed removed = queue_.CancelAll(1);
  EXPECT_EQ(removed.jobs, 2u);
  EXPECT_EQ(removed.bytes, 200u);
  // The address still has the running job and connection 2's.
  EXPECT_EQ(queue_.HeldBy(3, "192.0.2.1").address, 200u);
  EXPECT_EQ(TakeAll(), (std::vector<std::uint64_t>{21}));
  queue_.Finish(*running);
  EXPECT_EQ(queue_.HeldBy(1, "192.0.2.1").address, 0u);
  EXPECT_EQ(queue_.bytes(), 0u);
}

// A connection keeps its place among its address's connections through cancellations, and holds
// one place only.
TEST_F(OperationQueueTest, AConnectionHasOneTurnThroughCancellations) {
  ASSERT_FALSE(Push(1, "192.0.2.1", 11));
  EXPECT_EQ(queue_.Cancel(1, 11).jobs, 1u);
  ASSERT_FALSE(Push(2, "192.0.2.1", 21));
  ASSERT_FALSE(Push(2, "192.0.2.1", 22));
  ASSERT_FALSE(Push(1, "192.0.2.1", 12));
  ASSERT_FALSE(Push(1, "192.0.2.1", 13));
  EXPECT_EQ(TakeAll(), (std::vector<std::uint64_t>{12, 21, 13, 22}));
  EXPECT_FALSE(queue_.Take());
}

TEST_F(OperationQueueTest, AnAddressIsBoundedInNumberAcrossItsConnections) {
  for (std::uint64_t ticket = 0; ticket < 5; ++ticket) {
    ASSERT_FALSE(Push(ticket / 2 + 1, "192.0.2.1", ticket)) << ticket;
  }
  std::optional<OperationQueue::Refusal> refused = Push(9, "192.0.2.1", 5);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kAddress);
  EXPECT_NE(refused->message.find("NETGRAPH_WS_MAX_QUEUED_OPERATIONS_PER_ADDRESS"),
            std::string::npos)
      << refused->message;
  // Another address is not held up by it, and the refused job left nothing behind.
  EXPECT_FALSE(Push(10, "198.51.100.7", 6));
  EXPECT_EQ(queue_.waiting(), 6u);
  EXPECT_EQ(queue_.HeldBy(9, "192.0.2.1").connection, 0u);
}

TEST_F(OperationQueueTest, TheProcessIsBoundedInNumber) {
  for (std::uint64_t ticket = 0; ticket < 8; ++ticket) {
    ASSERT_FALSE(Push(ticket + 1, "192.0.2." + std::to_string(ticket), ticket)) << ticket;
  }
  std::optional<OperationQueue::Refusal> refused = Push(20, "203.0.113.1", 8);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kProcess);
  EXPECT_NE(refused->message.find("(NETGRAPH_WS_MAX_QUEUED_OPERATIONS)"), std::string::npos)
      << refused->message;
  std::optional<Job> job = queue_.Take();
  EXPECT_TRUE(Push(20, "203.0.113.1", 8)) << "a taken job still counts";
  queue_.Finish(*job);
  EXPECT_FALSE(Push(20, "203.0.113.1", 8));
}

TEST_F(OperationQueueTest, RequestBytesCountWithWhatTheClientHoldsElsewhere) {
  // The connection's subscriptions hold 1.5 MiB: a 600 KiB request would pass its 2 MiB.
  HeldBytes subscriptions{3 * kMiB / 2, 3 * kMiB / 2, 3 * kMiB / 2};
  std::optional<OperationQueue::Refusal> refused =
      Push(1, "192.0.2.1", 11, 600 * 1024, subscriptions);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kConnection);
  EXPECT_NE(refused->message.find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION"),
            std::string::npos)
      << refused->message;
  EXPECT_FALSE(Push(1, "192.0.2.1", 11, 400 * 1024, subscriptions));

  // Per address: 4 MiB across its connections, queued requests included.
  ASSERT_FALSE(Push(2, "192.0.2.1", 21, 3 * kMiB / 2));
  ASSERT_FALSE(Push(3, "192.0.2.1", 31, 3 * kMiB / 2));
  refused = Push(4, "192.0.2.1", 41, 3 * kMiB / 4);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kAddress);
  EXPECT_NE(refused->message.find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS"), std::string::npos)
      << refused->message;
  EXPECT_EQ(queue_.HeldBy(4, "192.0.2.1").address, 3 * kMiB + 400 * 1024);

  // The process: 6 MiB, here with 2 MiB of other addresses' subscriptions.
  refused = Push(5, "198.51.100.7", 51, kMiB, HeldBytes{0, 0, 2 * kMiB});
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->bound, Bound::kProcess);
  EXPECT_NE(refused->message.find("NETGRAPH_WS_MAX_DOCUMENT_BYTES)"), std::string::npos)
      << refused->message;

  // Cancelling gives the bytes back at once.
  EXPECT_EQ(queue_.Cancel(2, 21).bytes, 3 * kMiB / 2);
  EXPECT_FALSE(Push(4, "192.0.2.1", 41, 3 * kMiB / 4));
  EXPECT_EQ(queue_.bytes(), 3 * kMiB / 2 + 400 * 1024 + 3 * kMiB / 4);
}

TEST_F(OperationQueueTest, NothingIsLeftOnceEveryJobIsDone) {
  for (std::uint64_t ticket = 0; ticket < 5; ++ticket) {
    const OperationQueue::ConnectionId connection = ticket % 3 + 1;
    ASSERT_FALSE(Push(connection, "192.0.2." + std::to_string(connection % 2), ticket));
  }
  queue_.Cancel(1, 0);
  queue_.CancelAll(2);
  EXPECT_EQ(TakeAll().size(), 2u);
  EXPECT_EQ(queue_.waiting(), 0u);
  EXPECT_EQ(queue_.running(), 0u);
  EXPECT_EQ(queue_.bytes(), 0u);
  for (OperationQueue::ConnectionId c = 1; c <= 3; ++c) {
    HeldBytes held = queue_.HeldBy(c, "192.0.2." + std::to_string(c % 2));
    EXPECT_EQ(held.connection + held.address + held.process, 0u) << c;
  }
  // A later round starts from scratch: the full bound per address again.
  for (std::uint64_t ticket = 10; ticket < 15; ++ticket) {
    ASSERT_FALSE(Push(1, "192.0.2.1", ticket, 100)) << ticket;
    queue_.Finish(*queue_.Take());
  }
}

// Any interleaving of pushes, cancellations, takes and finishes: every job accepted and not
// cancelled while waiting is taken exactly once, a cancelled one never, the counts agree with what
// is in the queue, and nothing is left once all is done.
TEST_F(OperationQueueTest, AnyInterleavingKeepsTheBooks) {
  OperationQueue queue(OperationLimits{40, 12}, 6, MemoryLimits{});
  std::mt19937 random(22);
  std::map<std::uint64_t, OperationQueue::ConnectionId> waiting;  // ticket -> connection
  std::vector<Job> running;
  std::set<std::uint64_t> taken;
  std::set<std::uint64_t> cancelled;
  std::uint64_t next_ticket = 0;
  for (int step = 0; step < 20000; ++step) {
    const unsigned action = random() % 10;
    const OperationQueue::ConnectionId connection = random() % 12 + 1;
    const std::string address = "192.0.2." + std::to_string(connection % 3);
    if (action < 4) {
      const std::uint64_t ticket = ++next_ticket;
      if (!queue.Push(MakeJob(connection, address, ticket, 10), {})) waiting[ticket] = connection;
    } else if (action < 6 && !waiting.empty()) {
      auto victim = std::next(waiting.begin(), static_cast<long>(random() % waiting.size()));
      ASSERT_EQ(queue.Cancel(victim->second, victim->first).jobs, 1u);
      cancelled.insert(victim->first);
      waiting.erase(victim);
    } else if (action == 6) {
      const std::size_t before = queue.waiting();
      OperationQueue::Removed removed = queue.CancelAll(connection);
      std::size_t expected = 0;
      for (auto job = waiting.begin(); job != waiting.end();) {
        if (job->second != connection) {
          ++job;
          continue;
        }
        cancelled.insert(job->first);
        job = waiting.erase(job);
        ++expected;
      }
      ASSERT_EQ(removed.jobs, expected);
      ASSERT_EQ(queue.waiting(), before - expected);
    } else if (action < 9) {
      std::optional<Job> job = queue.Take();
      ASSERT_EQ(job.has_value(), !waiting.empty());
      if (job) {
        ASSERT_EQ(waiting.erase(job->ticket), 1u) << job->ticket;
        ASSERT_TRUE(taken.insert(job->ticket).second);
        running.push_back(std::move(*job));
      }
    } else if (!running.empty()) {
      const std::size_t index = random() % running.size();
      queue.Finish(running[index]);
      running.erase(running.begin() + static_cast<long>(index));
    }
    ASSERT_EQ(queue.waiting(), waiting.size());
    ASSERT_EQ(queue.running(), running.size());
    ASSERT_EQ(queue.bytes(), 10 * (waiting.size() + running.size()));
  }
  while (std::optional<Job> job = queue.Take()) {
    ASSERT_EQ(waiting.erase(job->ticket), 1u);
    queue.Finish(*job);
  }
  for (const Job& job : running) queue.Finish(job);
  EXPECT_TRUE(waiting.empty());
  EXPECT_EQ(queue.bytes(), 0u);
  for (std::uint64_t ticket : cancelled) EXPECT_EQ(taken.count(ticket), 0u) << ticket;
  for (OperationQueue::ConnectionId c = 1; c <= 12; ++c) {
    EXPECT_EQ(queue.HeldBy(c, "192.0.2." + std::to_string(c % 3)).address, 0u);
  }
}

}  // namespace
}  // namespace netgraph::ws
