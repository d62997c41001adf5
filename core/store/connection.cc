#include "core/store/connection.h"

#include <libpq-fe.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>

#include "core/log.h"
#include "core/telemetry.h"

namespace netgraph::store {

const telemetry::Counter kPostgresErrors({"netgraph_postgres_errors_total",
                                          telemetry::MetricType::kCounter,
                                          "Failed PostgreSQL statements and connection attempts.",
                                          ""});
const telemetry::Counter kPostgresConnects(
    {"netgraph_postgres_connects_total", telemetry::MetricType::kCounter,
     "PostgreSQL connections opened (one per child, plus every reconnect).", ""});

namespace {

// Server notices ("relation ... already exists, skipping") would otherwise go straight to stderr
// in libpq's format; warnings stay visible, the rest is detail. The severity is the notice's
// non-localized field (a protocol keyword, as a SQLSTATE is), not its text, which the server's
// lc_messages may translate.
void LogServerNotice(void*, const PGresult* notice) {
  std::string_view text(PQresultErrorMessage(notice));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  const char* severity = PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED);
  const bool warning = severity != nullptr && std::string_view(severity) == "WARNING";
  log::Write(warning ? log::Level::kWarn : log::Level::kDebug, "PostgreSQL " + std::string(text));
}

// libpq's parameters that are not settings: a dead server found within ~5 s of connecting, or
// within ~25 s (idle 10 s, then 3 probes 5 s apart) on an idle connection. DATABASE_URL overrides.
constexpr int kConnectTimeoutSeconds = 5;
constexpr int kKeepalivesIdleSeconds = 10;
constexpr int kKeepalivesIntervalSeconds = 5;
constexpr int kKeepalivesCount = 3;

// How long the answer to a statement may take before the server counts as unreachable: the
// server's own statement_timeout, plus the time a broken link may take to be noticed. Past it the
// connection is dropped. This is what ends the wait when nothing at the TCP level can: a middlebox
// or proxy that keeps the connection open but forwards nothing acknowledges what is sent, so
// neither tcp_user_timeout nor keep-alives fire. No deadline without a statement_timeout (e.g.
// migrations, which may run long).
std::int64_t AnswerTimeoutMs(const ConnectionOptions& options) {
  if (options.statement_timeout_ms <= 0) return 0;
  return options.statement_timeout_ms +
         std::max<std::int64_t>(options.tcp_user_timeout_ms, kConnectTimeoutSeconds * 1000);
}

// The result of the query just sent on `conn` (the last one, when the text held several), or
// nullopt when none arrived within `timeout_ms` (0: wait as long as it takes).
std::optional<pg_result*> AwaitResult(pg_conn* conn, std::int64_t timeout_ms) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (PQisBusy(conn) != 0) {
    int wait_ms = -1;
    if (timeout_ms > 0) {
      wait_ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(
                                     std::max(deadline - Clock::now(), Clock::duration::zero()))
                                     .count());
    }
    pollfd pfd{PQsocket(conn), POLLIN, 0};
    const int ready = ::poll(&pfd, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return std::nullopt;
    if (PQconsumeInput(conn) == 0) break;  // the link failed: PQgetResult reports it
  }
  pg_result* last = nullptr;
  while (pg_result* result = PQgetResult(conn)) {
    if (last != nullptr) PQclear(last);
    last = result;
  }
  return last;
}

std::string WithoutTrailingSpace(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// libpq's rule for when a "dbname" is itself a connection string to expand.
bool IsConnectionString(std::string_view conninfo) {
  return conninfo.find('=') != std::string_view::npos || conninfo.starts_with("postgresql://") ||
         conninfo.starts_with("postgres://");
}

constexpr Statement kServerVersion{"server_version_num",
                                   "SELECT current_setting('server_version_num')::int"};

// "15.18": the exact build and platform (server_version reads "15.18 (Debian 15.18-0+deb12u1)")
// are not for anonymous callers of graphdbStatus and /health.
std::string MajorMinorVersion(std::int64_t server_version_num) {
  // Since PostgreSQL 10 the number is major * 10000 + minor; before, it was
  // major * 10000 + second part * 100 + minor, and the "major" was the first two parts.
  const std::int64_t first = server_version_num / 10000;
  const std::int64_t second =
      first >= 10 ? server_version_num % 10000 : server_version_num / 100 % 100;
  return std::to_string(first) + "." + std::to_string(second);
}

StatusCode CodeOfSqlState(std::string_view sqlstate) {
  if (sqlstate == "40001" || sqlstate == "40P01") return StatusCode::kAborted;  // lost a race
  if (sqlstate == "57014" || sqlstate == "55P03") return StatusCode::kDeadlineExceeded;
  if (sqlstate == "23505") return StatusCode::kAlreadyExists;
  return StatusCode::kInternal;
}

const char* BeginStatement(Isolation isolation) {
  switch (isolation) {
    case Isolation::kReadCommitted:
      return "BEGIN ISOLATION LEVEL READ COMMITTED";
    case Isolation::kRepeatableRead:
      return "BEGIN ISOLATION LEVEL REPEATABLE READ";
    case Isolation::kSerializable:
      return "BEGIN ISOLATION LEVEL SERIALIZABLE";
  }
  return "BEGIN";
}

}  // namespace

ConnectionOptions ConnectionOptions::FromEnvironment(config::Environment& env) {
  ConnectionOptions options;
  constexpr std::int64_t kHourMs = 3600 * 1000;
  auto read = [&env](const char* name, std::int64_t* milliseconds) {
    *milliseconds = env.Int(name, *milliseconds, 0, kHourMs);
  };
  read("NETGRAPH_DB_STATEMENT_TIMEOUT_MS", &options.statement_timeout_ms);
  read("NETGRAPH_DB_LOCK_TIMEOUT_MS", &options.lock_timeout_ms);
  read("NETGRAPH_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", &options.idle_in_transaction_timeout_ms);
  read("NETGRAPH_DB_TCP_USER_TIMEOUT_MS", &options.tcp_user_timeout_ms);
  return options;
}

Result<std::vector<std::pair<std::string, std::string>>> ConnectionParameters(
    const std::string& conninfo, const ConnectionOptions& options) {
  PQconninfoOption* given = nullptr;
  if (IsConnectionString(conninfo)) {
    char* error = nullptr;
    given = PQconninfoParse(conninfo.c_str(), &error);
    if (given == nullptr) {
      std::string message = error == nullptr ? "out of memory" : WithoutTrailingSpace(error);
      PQfreemem(error);
      return Status::InvalidArgument("DATABASE_URL does not parse: " + message);
    }
  }
  PQconninfoOption* defaults = PQconndefaults();
  // What the operator set for `keyword`: in the connection string, or in libpq's environment
  // variable for it (which a parameter given here would shadow).
  auto operator_value = [&](std::string_view keyword) -> std::optional<std::string> {
    for (PQconninfoOption* o = given; o != nullptr && o->keyword != nullptr; ++o) {
      if (keyword == o->keyword && o->val != nullptr && *o->val != '\0') return o->val;
    }
    for (PQconninfoOption* o = defaults; o != nullptr && o->keyword != nullptr; ++o) {
      if (keyword != o->keyword || o->envvar == nullptr) continue;
      const char* value = std::getenv(o->envvar);
      if (value != nullptr && *value != '\0') return value;
    }
    return std::nullopt;
  };

  std::vector<std::pair<std::string, std::string>> parameters{{"dbname", conninfo}};
  auto add = [&](const char* keyword, std::int64_t value) {
    if (value > 0 && !operator_value(keyword)) {
      parameters.emplace_back(keyword, std::to_string(value));
    }
  };
  add("connect_timeout", kConnectTimeoutSeconds);
  if (!operator_value("application_name")) parameters.emplace_back("application_name", "netgraph");
  add("keepalives", 1);
  add("keepalives_idle", kKeepalivesIdleSeconds);
  add("keepalives_interval", kKeepalivesIntervalSeconds);
  add("keepalives_count", kKeepalivesCount);
  add("tcp_user_timeout", options.tcp_user_timeout_ms);

  std::string settings;
  auto set = [&settings](const char* name, std::int64_t milliseconds) {
    if (milliseconds > 0) {
      settings.append("-c ").append(name).append("=").append(std::to_string(milliseconds)) += ' ';
    }
  };
  set("statement_timeout", options.statement_timeout_ms);
  set("lock_timeout", options.lock_timeout_ms);
  set("idle_in_transaction_session_timeout", options.idle_in_transaction_timeout_ms);
  // The server applies -c settings in order, so the operator's own come last and win.
  if (std::optional<std::string> own = operator_value("options")) settings += *own;
  settings = WithoutTrailingSpace(std::move(settings));
  if (!settings.empty()) parameters.emplace_back("options", settings);

  PQconninfoFree(given);
  PQconninfoFree(defaults);
  return parameters;
}

bool ConnectionNamesUser(const std::string& conninfo) {
  const char* pguser = std::getenv("PGUSER");
  if (pguser != nullptr && *pguser != '\0') return true;
  if (!IsConnectionString(conninfo)) return false;  // a bare database name
  char* error = nullptr;
  PQconninfoOption* given = PQconninfoParse(conninfo.c_str(), &error);
  PQfreemem(error);
  if (given == nullptr) return true;
  bool named = false;
  for (PQconninfoOption* o = given; o->keyword != nullptr; ++o) {
    if (std::string_view(o->keyword) == "user" && o->val != nullptr && *o->val != '\0') {
      named = true;
    }
  }
  PQconninfoFree(given);
  return named;
}

Rows::Rows(pg_result* result) : result_(result) {}
Rows::Rows(Rows&& other) noexcept : result_(std::exchange(other.result_, nullptr)) {}
Rows& Rows::operator=(Rows&& other) noexcept {
  if (this != &other) {
    if (result_ != nullptr) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}
Rows::~Rows() {
  if (result_ != nullptr) PQclear(result_);
}

int Rows::size() const { return result_ == nullptr ? 0 : PQntuples(result_); }

std::int64_t Rows::affected() const {
  if (result_ == nullptr) return 0;
  const char* n = PQcmdTuples(result_);
  return n == nullptr || *n == '\0' ? 0 : std::strtoll(n, nullptr, 10);
}

bool Rows::IsNull(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }

std::string_view Rows::Text(int row, int column) const {
  return std::string_view(PQgetvalue(result_, row, column),
                          static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

std::int64_t Rows::Int(int row, int column) const {
  return IsNull(row, column) ? 0 : std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}

double Rows::Float(int row, int column) const {
  return IsNull(row, column) ? 0.0 : std::strtod(PQgetvalue(result_, row, column), nullptr);
}

bool Rows::Bool(int row, int column) const { return Text(row, column) == "t"; }

std::optional<std::string> Rows::OptionalText(int row, int column) const {
  if (IsNull(row, column)) return std::nullopt;
  return std::string(Text(row, column));
}

std::optional<std::int64_t> Rows::OptionalInt(int row, int column) const {
  if (IsNull(row, column)) return std::nullopt;
  return Int(row, column);
}

Connection::Connection(std::string conninfo, ConnectionOptions options)
    : conninfo_(std::move(conninfo)), options_(options) {}

Connection::~Connection() { Close(); }

bool Connection::connected() const { return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK; }

void Connection::Close() {
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
  prepared_.clear();
  in_transaction_ = false;
}

Status Connection::Open() {
  Close();
  Result<std::vector<std::pair<std::string, std::string>>> parameters =
      ConnectionParameters(conninfo_, options_);
  NETGRAPH_RETURN_IF_ERROR(parameters);
  std::vector<const char*> keywords;
  std::vector<const char*> values;
  for (const auto& [keyword, value] : *parameters) {
    keywords.push_back(keyword.c_str());
    values.push_back(value.c_str());
  }
  keywords.push_back(nullptr);
  values.push_back(nullptr);
  conn_ = PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1);
  if (conn_ == nullptr) return Status::ResourceExhausted("PostgreSQL: out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    kPostgresErrors.Add();
    std::string message = WithoutTrailingSpace(PQerrorMessage(conn_));
    Close();
    return Status::Unavailable("PostgreSQL connection failed: " + message);
  }
  kPostgresConnects.Add();
  ++sessions_;
  PQsetNoticeReceiver(conn_, LogServerNotice, nullptr);
  for (const std::string& channel : listening_) {
    if (Status s = Simple(("LISTEN " + channel).c_str()); !s.ok()) {
      Close();
      return s;
    }
  }
  return Status::Ok();
}

Status Connection::EnsureConnected() {
  if (connected()) return Status::Ok();
  return Open();
}

Result<Rows> Connection::RunOnce(const Statement& statement, const std::vector<Param>& params) {
  // What the slow log shows as this request's database time (core/telemetry.h).
  struct Timed {
    bool active = telemetry::RequestProfile::Active();
    std::chrono::steady_clock::time_point start =
        active ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    ~Timed() {
      if (!active) return;
      telemetry::RequestProfile::AddDatabaseTime(std::chrono::steady_clock::now() - start);
    }
  } timed;
  auto fail = [this](pg_result* result, const std::string& what) -> Result<Rows> {
    kPostgresErrors.Add();
    const char* primary =
        result == nullptr ? nullptr : PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    return Failure(result, primary == nullptr ? PQerrorMessage(conn_) : primary).WithContext(what);
  };

  const std::string name = statement.name;
  if (std::find(prepared_.begin(), prepared_.end(), name) == prepared_.end()) {
    if (PQsendPrepare(conn_, statement.name, statement.sql, 0, nullptr) == 0) {
      return fail(nullptr, std::string("preparing ") + statement.name);
    }
    std::optional<pg_result*> prepared = AwaitResult(conn_, AnswerTimeoutMs(options_));
    if (!prepared) return Unanswered();
    if (PQresultStatus(*prepared) != PGRES_COMMAND_OK) {
      return fail(*prepared, std::string("preparing ") + statement.name);
    }
    PQclear(*prepared);
    prepared_.push_back(name);
  }

  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& p : params) values.push_back(p ? p->c_str() : nullptr);
  if (PQsendQueryPrepared(conn_, statement.name, static_cast<int>(values.size()), values.data(),
                          nullptr, nullptr, 0) == 0) {
    return fail(nullptr, statement.name);
  }
  std::optional<pg_result*> answer = AwaitResult(conn_, AnswerTimeoutMs(options_));
  if (!answer) return Unanswered();
  pg_result* result = *answer;
  ExecStatusType status = PQresultStatus(result);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    return fail(result, statement.name);
  }
  return Rows(result);
}

Result<Rows> Connection::Run(const Statement& statement, const std::vector<Param>& params) {
  NETGRAPH_RETURN_IF_ERROR(EnsureConnected());
  // Taken before: a connection dropped inside a transaction is no longer in one.
  const bool in_transaction = in_transaction_;
  Result<Rows> rows = RunOnce(statement, params);
  if (!rows.ok() && rows.status().IsUnavailable() && !in_transaction) {
    NETGRAPH_RETURN_IF_ERROR(Open());
    rows = RunOnce(statement, params);
  }
  return rows;
}

Status Connection::Execute(const Statement& statement, const std::vector<Param>& params) {
  Result<Rows> rows = Run(statement, params);
  return rows.ok() ? Status::Ok() : rows.status();
}

Status Connection::Simple(const char* sql) {
  if (PQsendQuery(conn_, sql) == 0) return Failure(nullptr, PQerrorMessage(conn_));
  std::optional<pg_result*> answer = AwaitResult(conn_, AnswerTimeoutMs(options_));
  if (!answer) return Unanswered();
  pg_result* result = *answer;
  ExecStatusType status = PQresultStatus(result);
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
    PQclear(result);
    return Status::Ok();
  }
  return Failure(result, PQerrorMessage(conn_));
}

Status Connection::Unanswered() {
  Close();  // whatever the server does with the statement, this session is over
  return Status::Unavailable("PostgreSQL did not answer within " +
                             std::to_string(AnswerTimeoutMs(options_)) +
                             " ms (statement_timeout plus tcp_user_timeout); connection dropped");
}

Status Connection::Failure(pg_result* result, const std::string& message) {
  const char* state = result == nullptr ? nullptr : PQresultErrorField(result, PG_DIAG_SQLSTATE);
  const StatusCode code = PQstatus(conn_) != CONNECTION_OK ? StatusCode::kUnavailable
                          : state == nullptr               ? StatusCode::kInternal
                                                           : CodeOfSqlState(state);
  if (result != nullptr) PQclear(result);
  return Status::FromCode(code, message);
}

Status Connection::InTransaction(Isolation isolation, const std::function<Status()>& body,
                                 int max_attempts) {
  Status outcome = Status::Ok();
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    NETGRAPH_RETURN_IF_ERROR(EnsureConnected());
    if (Status s = Simple(BeginStatement(isolation)); !s.ok()) {
      outcome = s;
      if (s.IsUnavailable()) continue;  // nothing ran yet: start over on a new link
      return s;
    }
    in_transaction_ = true;
    try {
      outcome = body();
    } catch (...) {
      Abandon();
      throw;
    }
    if (outcome.ok()) {
      outcome = Simple("COMMIT");
      in_transaction_ = false;
      if (outcome.ok()) return outcome;
      if (outcome.IsUnavailable()) {
        // Unknown, not Unavailable: it may have committed, so running it again is not safe.
        return Status::FromCode(
            StatusCode::kUnknown,
            "connection lost during COMMIT; the transaction's outcome is unknown");
      }
    } else {
      Abandon();
      // The server rolled back a transaction whose connection broke: running it again is safe.
      if (outcome.IsUnavailable()) continue;
    }
    if (!outcome.IsAborted()) return outcome;
  }
  return outcome;
}

void Connection::Abandon() {
  in_transaction_ = false;
  if (connected() && Simple("ROLLBACK").ok() && PQtransactionStatus(conn_) == PQTRANS_IDLE) return;
  // The server rolls back the transaction of a session that ends.
  Close();
}

Status Connection::ExecuteScript(const std::string& sql) {
  NETGRAPH_RETURN_IF_ERROR(EnsureConnected());
  return Simple(sql.c_str());
}

Status Connection::Listen(const char* channel) {
  const bool known = std::find(listening_.begin(), listening_.end(), channel) != listening_.end();
  if (!known) listening_.emplace_back(channel);
  if (!connected()) return Open();  // Open LISTENs on every channel
  if (known) return Status::Ok();
  return Simple((std::string("LISTEN ") + channel).c_str());
}

Result<bool> Connection::AwaitNotification(std::chrono::milliseconds timeout,
                                           const NotificationHandler& each) {
  NETGRAPH_RETURN_IF_ERROR(EnsureConnected());
  auto drain = [this, &each]() {
    bool any = false;
    while (PGnotify* notification = PQnotifies(conn_)) {
      any = true;
      if (each) each(notification->relname, notification->extra);
      PQfreemem(notification);
    }
    return any;
  };
  if (PQconsumeInput(conn_) == 0) return Status::Unavailable(PQerrorMessage(conn_));
  if (drain()) return true;
  pollfd pfd{PQsocket(conn_), POLLIN, 0};
  int ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
  if (ready <= 0) return false;  // timeout, or EINTR: the caller checks why it was woken
  if (PQconsumeInput(conn_) == 0) return Status::Unavailable(PQerrorMessage(conn_));
  return drain();
}

Result<std::string> Connection::ServerVersion() {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, Run(kServerVersion));
  if (rows.empty()) return Status::Internal("server_version_num: no row");
  std::optional<std::int64_t> number = rows.OptionalInt(0, 0);
  if (!number) return Status::Internal("server_version_num: NULL");
  return MajorMinorVersion(*number);
}

ServerAnswer AskServer(const std::string& conninfo) {
  switch (PQping(conninfo.c_str())) {
    case PQPING_OK:
      return ServerAnswer::kAccepting;
    case PQPING_REJECT:
      return ServerAnswer::kNotNow;
    case PQPING_NO_RESPONSE:
      return ServerAnswer::kUnreachable;
    case PQPING_NO_ATTEMPT:
      break;
  }
  return ServerAnswer::kInvalid;
}

}  // namespace netgraph::store
