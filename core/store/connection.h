// One PostgreSQL connection (libpq) as a worker process holds it: statements are prepared once per
// connection, parameters are always bound (never spliced into SQL), a lost connection is re-opened
// on the next use, and a transaction that loses a serialization race is retried from the start.
// Every session runs under the limits of ConnectionOptions, so a blocked lock, a runaway statement
// or a silently lost server costs a request seconds instead of holding a worker for minutes.
//
// Not thread-safe: each process (or thread) owns its Connection.
#ifndef NETGRAPH_CORE_STORE_CONNECTION_H_
#define NETGRAPH_CORE_STORE_CONNECTION_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/environment.h"
#include "core/status.h"
#include "core/telemetry.h"

struct pg_conn;
struct pg_result;

namespace netgraph::store {

// What the process's connections count (core/telemetry.h): failed statements and connection
// attempts, and connections opened.
extern const telemetry::Counter kPostgresErrors;
extern const telemetry::Counter kPostgresConnects;

// A named SQL statement. Define each one once, as a constant next to the code that runs it; the
// connection prepares it on first use and again after every reconnect.
struct Statement {
  const char* name;
  const char* sql;
};

// A bound parameter in text form; nullopt is SQL NULL.
using Param = std::optional<std::string>;

// The rows a statement returned. Owns the libpq result.
class Rows {
 public:
  Rows() = default;
  explicit Rows(pg_result* result);
  Rows(Rows&& other) noexcept;
  Rows& operator=(Rows&& other) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows();

  int size() const;
  bool empty() const { return size() == 0; }
  // Rows affected by an INSERT/UPDATE/DELETE without RETURNING.
  std::int64_t affected() const;
  bool IsNull(int row, int column) const;
  std::string_view Text(int row, int column) const;  // "" for NULL
  std::int64_t Int(int row, int column) const;       // 0 for NULL
  double Float(int row, int column) const;
  bool Bool(int row, int column) const;  // PostgreSQL's 't'
  std::optional<std::string> OptionalText(int row, int column) const;
  std::optional<std::int64_t> OptionalInt(int row, int column) const;

 private:
  pg_result* result_ = nullptr;
};

enum class Isolation { kReadCommitted, kRepeatableRead, kSerializable };

// Limits for each session (docs/operations.md). 0 leaves a limit to the server's (or libpq's)
// own setting. What DATABASE_URL (or libpq's environment variable for it, such as PGOPTIONS) sets
// explicitly wins over these; server settings the operator put in `options` come after ours.
struct ConnectionOptions {
  std::int64_t statement_timeout_ms = 5000;             // SQLSTATE 57014 when exceeded
  std::int64_t lock_timeout_ms = 2000;                  // SQLSTATE 55P03 when exceeded
  std::int64_t idle_in_transaction_timeout_ms = 10000;  // the server then ends the session
  // How long sent data may stay unacknowledged before the link counts as dead (a partitioned
  // server would otherwise hold a worker for the kernel's ~15 minutes of retransmissions).
  std::int64_t tcp_user_timeout_ms = 10000;

  // NETGRAPH_DB_* settings; a bad value is recorded in `env`.
  static ConnectionOptions FromEnvironment(config::Environment& env);
};

// The libpq keyword/value pairs a connection is opened with: "dbname" carrying `conninfo` (which
// libpq expands), then each of `options` that the operator did not set. Fails when `conninfo`
// does not parse.
Result<std::vector<std::pair<std::string, std::string>>> ConnectionParameters(
    const std::string& conninfo, const ConnectionOptions& options);

// Whether `conninfo` (or libpq's PGUSER) names the user to log in as; without one libpq logs in as
// the process's system user (netgraphctl, started as root, then runs as the service's user). True
// when `conninfo` does not parse: the connection will say why.
bool ConnectionNamesUser(const std::string& conninfo);

// Every failing call returns a Status whose code says what the caller can do about it (the message
// is the server's or libpq's text):
//   kUnavailable       the connection could not be opened or was lost, or the server did not
//                      answer within statement_timeout plus tcp_user_timeout (the connection is
//                      then dropped; nothing of an open transaction was committed): running again
//                      on a new connection may work;
//   kAborted           a serialization failure or deadlock (SQLSTATE 40001, 40P01): run the whole
//                      transaction again (InTransaction does);
//   kDeadlineExceeded  statement_timeout or lock_timeout ran out (57014, 55P03);
//   kAlreadyExists     a unique constraint refused the row (23505);
//   kInternal          any other error the server reported;
//   kUnknown           COMMIT lost its connection: the transaction's outcome is unknown.
class Connection {
 public:
  // `conninfo`: a libpq connection string or URI (DATABASE_URL).
  explicit Connection(std::string conninfo, ConnectionOptions options = {});
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Opens the connection if it is not open or was lost. Cheap when open.
  Status EnsureConnected();
  bool connected() const;
  // How many times the connection was opened: a listener that sees it change was not listening for
  // a while, and may have missed notifications.
  std::uint64_t sessions() const { return sessions_; }
  // The server's major.minor version, e.g. "15.18" (from server_version_num).
  Result<std::string> ServerVersion();

  // Runs a prepared statement. Outside a transaction, a statement that finds the connection lost is
  // retried once on a fresh connection.
  Result<Rows> Run(const Statement& statement, const std::vector<Param>& params = {});
  // Run for a statement whose rows are not needed.
  Status Execute(const Statement& statement, const std::vector<Param>& params = {});

  // Runs `body` in a transaction at `isolation` and commits when it returns Ok. A serialization
  // failure or deadlock (40001, 40P01) anywhere in it rolls back and runs `body` again, up to
  // `max_attempts` times; any other failure rolls back and is returned. An exception thrown by
  // `body` rolls back too (or, when ROLLBACK fails, closes the connection, which ends the
  // transaction on the server) and propagates: nothing of that attempt is ever committed.
  Status InTransaction(Isolation isolation, const std::function<Status()>& body,
                       int max_attempts = 5);
  bool in_transaction() const { return in_transaction_; }

  // Runs SQL text with no parameters (migrations, session settings). Not for anything built from
  // input.
  Status ExecuteScript(const std::string& sql);

  // LISTENs on `channel` (a constant identifier, never input) now and again after every reconnect.
  // Cheap when already listening: call it before each wait to reconnect a lost connection.
  Status Listen(const char* channel);
  // What a NOTIFY carried: its channel and its payload.
  using NotificationHandler =
      std::function<void(std::string_view channel, std::string_view payload)>;
  // Waits up to `timeout` for a NOTIFY on a LISTENed channel and consumes every pending one,
  // handing each to `each` when given. Returns true when at least one arrived; false on timeout or
  // when a signal interrupted the wait.
  Result<bool> AwaitNotification(std::chrono::milliseconds timeout,
                                 const NotificationHandler& each = nullptr);

 private:
  Status Open();
  void Close();
  Result<Rows> RunOnce(const Statement& statement, const std::vector<Param>& params);
  Status Simple(const char* sql);
  // The server did not answer in time (a partition a proxy hides): drops the connection.
  Status Unanswered();
  // The Status for a failed `result` (which it frees; may be null), coded as documented above.
  Status Failure(pg_result* result, const std::string& message);
  // Ends the open transaction without committing, whatever state the connection is in.
  void Abandon();

  std::string conninfo_;
  ConnectionOptions options_;
  pg_conn* conn_ = nullptr;
  std::vector<std::string> prepared_;   // names prepared on this connection
  std::vector<std::string> listening_;  // channels to LISTEN on after each (re)connect
  bool in_transaction_ = false;
  std::uint64_t sessions_ = 0;
};

// What the PostgreSQL server that `conninfo` names says to a connection attempt, from libpq's
// PQping, which reads the server's answer (its SQLSTATE), not its wording: kAccepting when it
// answered as a running server does, even with a refusal of these credentials or database;
// kNotNow while it starts, stops or recovers (57P03); kUnreachable when nothing answered;
// kInvalid when `conninfo` cannot be read.
enum class ServerAnswer { kAccepting, kNotNow, kUnreachable, kInvalid };
ServerAnswer AskServer(const std::string& conninfo);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_CONNECTION_H_
