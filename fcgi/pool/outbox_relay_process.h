// The outbox relay process (core/domain/outbox_relay.h does the publishing): one more child of the
// pool's master (fcgi/pool/master.h), which restarts it when it dies. It lives here, not in
// daemon/, because only netgraph-fcgi runs it; netgraph-ws only receives what it publishes.
//
// The process wakes at commit (LISTEN on the channel the appending transaction NOTIFYs) and polls
// every NETGRAPH_RELAY_POLL_MS as a fallback; only those run a pass (a change heard that appended
// nothing, as every claim's to a known wallet, only invalidates what it changed); when PostgreSQL
// or Redis fails it retries with exponential back-off up to NETGRAPH_RELAY_MAX_BACKOFF_MS, logging
// once per change of problem, not once per retry. Now and then it runs the relay's housekeeping.
// Every change it hears of (an outbox append, or a change of the investment figures, from any
// process on any host), its first pass to reach PostgreSQL (changes committed while no relay
// listened went unheard), every reconnection, after which it may have missed some (one the store
// made by itself between two waits included: store::Connection::sessions), and a new epoch started
// for a rewound database advance the pool's data generation (api::Service::NoteDataChanged,
// fcgi/pool/data_generation.h) at once, during back-off too. A user's portfolio announced
// (store::kPortfolioNotifyChannel) advances that user's generation
// (api::Service::NotePortfolioChanged, fcgi/pool/user_generations.h), and a user's row announced
// (store::kUserRowNotifyChannel) that row's (api::Service::NoteUserRowChanged); whatever advances
// the data generation for announcements that may have gone unheard advances every user's and every
// row's too. SIGTERM, SIGINT and SIGQUIT stop it after the pass in hand (they also cut a wait
// short); SIGHUP and SIGPIPE are ignored.
#ifndef NETGRAPH_FCGI_POOL_OUTBOX_RELAY_PROCESS_H_
#define NETGRAPH_FCGI_POOL_OUTBOX_RELAY_PROCESS_H_

#include "core/api/service.h"
#include "fcgi/pool/scoreboard.h"

namespace netgraph::fcgi {

// The relay process's main, publishing through `service`'s database, Redis client and update
// authenticator, and recording each pass (what it published, how long after commit, what is left)
// in its slot of `scoreboard` (null: nowhere) for the pool's /metrics. Returns the exit status.
int RunOutboxRelayProcess(api::Service& service, Scoreboard* scoreboard);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_OUTBOX_RELAY_PROCESS_H_
