// The Backend and EventExecutor of the real process: credentials checked by api::Service (the same
// code as HTTP), queries and mutations run through api::RunOperation and subscriptions started
// through api::Subscribe (core/api/operation.h, the path HTTP's operations take too), and graph
// updates from Redis fanned out through the hub.
//
// Everything runs on the event loop thread except queries and mutations sent over a socket: those
// run on the database worker threads (ws/database_workers.h), each with its own service and
// connection, and their outcomes come back to the loop. The loop's own database connection only
// serves the catch-up from the outbox (ws/update_feed.h): a persisted query's hash the loop does
// not remember is looked up on a database thread, and a document to register is stored by one.
//
// It is also the ClientDirectory: it numbers each connection and keeps its client address, which
// the operation queue's bounds and turns go by (ws/operation_queue.h), and it counts what a client
// holds in the hub and in the queue against the same MemoryLimits.
#ifndef NETGRAPH_WS_GRAPHQL_BACKEND_H_
#define NETGRAPH_WS_GRAPHQL_BACKEND_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "core/api/service.h"
#include "core/throttled_log.h"
#include "ws/database_workers.h"
#include "ws/hub.h"
#include "ws/options.h"
#include "ws/session.h"
#include "ws/update.h"
#include "ws/update_feed.h"

namespace netgraph::ws {

class GraphqlBackend final : public Backend,
                             public EventExecutor,
                             public ClientDirectory,
                             private OutboxReader {
 public:
  // `listen` is called with each new subscription's topic: the Redis channel to subscribe to.
  // `token_leeway`: NETGRAPH_JWT_LEEWAY_SECONDS, how long after its exp a token is still accepted.
  // Published payloads larger than `max_update_bytes` are refused.
  // Queries and mutations run on `workers`.
  GraphqlBackend(api::Service& service, DatabaseWorkers& workers, std::chrono::seconds token_leeway,
                 const MemoryLimits& limits, std::function<void(const std::string&)> listen,
                 std::size_t max_update_bytes);

  // Where the server reports each connection's client address (the per-address bounds).
  ClientDirectory& clients() { return *this; }

  // ClientDirectory
  void Connected(Subscriber& subscriber, std::string address) override;
  void Disconnected(Subscriber& subscriber) override;

  // A message was published on Redis `channel`: one update for the subscriptions fed by it, once
  // it is authenticated (service.updates()) and parsed; anything else is dropped and logged
  // (throttled, core/throttled_log.h) before its sequence number can count. Updates reach the
  // subscriptions in outbox order, once each (ws/update_feed.h).
  void OnPublished(std::string_view channel, std::string_view message);
  // The Redis subscription is in place (again): what was missed meanwhile is read from the outbox.
  void OnSubscribed() { feed_.OnSubscribed(); }

  // Backend
  Authentication Authenticate(std::string_view authorization) override;
  StartResult Start(Subscriber& subscriber, const std::string& id, const OperationRequest& sent,
                    graphql::RequestContext* context) override;
  void Stop(Subscriber& subscriber, const std::string& id) override;
  void StopAll(Subscriber& subscriber) override;

  // EventExecutor
  graphql::ExecutionResult ExecuteEvent(const graphql::Subscription& subscription,
                                        const graphql::Value& event) override;

 private:
  // OutboxReader, over the process's own database connection.
  Result<store::OutboxPosition> Head() override;
  Result<store::OutboxPage> After(std::int64_t after_id, std::int64_t limit) override;

  // A connection as the operation queue knows it.
  struct Client {
    OperationQueue::ConnectionId connection = 0;
    std::string address;
  };
  // `subscriber`'s; connection 0 and no address for one the server never reported.
  const Client& ClientOf(Subscriber& subscriber) const;

  // Stores a persisted document (core/api/persisted_documents.h) on a database thread, counted
  // against `subscriber`'s client like its queued operations.
  void RegisterOnWorker(Subscriber& subscriber, const std::string& hash, const std::string& text);

  // Hands freed memory (documents, requests) back to the system once enough has been released:
  // glibc keeps freed heap pages otherwise, and a closed attack would leave the process at its
  // peak.
  void NoteReleased(std::size_t bytes);

  // Queues a query or mutation for the workers; its outcome goes to `subscriber` unless stopped
  // first. A request error when the queue refuses it (extensions.code kQueueFullCode).
  StartResult StartOnWorker(Subscriber& subscriber, const std::string& id,
                            const OperationRequest& request, const api::RequestScope& scope);

  api::Service& service_;
  DatabaseWorkers& workers_;
  std::map<Subscriber*, Client> clients_;
  OperationQueue::ConnectionId next_connection_ = 0;
  // The operations queued for or running on workers, each with its ticket (OperationQueue::Job),
  // which its completion must find here (an id stopped and started again gets a new one).
  std::map<std::pair<Subscriber*, std::string>, std::uint64_t> pending_;
  std::uint64_t next_ticket_ = 0;
  std::chrono::seconds token_leeway_;
  std::function<void(const std::string&)> listen_;
  std::unique_ptr<api::RequestScope> anonymous_;  // the context of shared executions
  std::size_t max_update_bytes_;
  log::ThrottledLog refusals_;
  Hub hub_;
  UpdateFeed feed_;
  std::size_t released_since_trim_ = 0;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_GRAPHQL_BACKEND_H_
