// FastCGI 1.0 records (the responder role), parsed and encoded without I/O so that the worker's
// connection handling (fcgi/pool/worker.cc) stays small and this part is unit-tested and fuzzed
// (tests/unit/fcgi/fastcgi_record_test.cc, tests/fuzz/fuzz_fastcgi.cc).
//
// One RequestAssembler per connection reads the web server's records and yields one complete
// request at a time: BEGIN_REQUEST (responder role, FCGI_KEEP_CONN), PARAMS until an empty one,
// STDIN until an empty one. Management records (request id 0) are answered at once: GET_VALUES
// with FCGI_MAX_CONNS, FCGI_MAX_REQS and FCGI_MPXS_CONNS=0, anything else with UNKNOWN_TYPE. A
// second request begun while one is open is refused (END_REQUEST, FCGI_CANT_MPX_CONN), another role
// with FCGI_UNKNOWN_ROLE. Anything else that breaks the protocol, or parameters beyond their
// limit, fails the connection: the caller closes it. A body beyond its limit is read and dropped
// so that the request can still be answered (413). Memory stays within the limits plus one record.
#ifndef NETGRAPH_FCGI_FASTCGI_RECORD_H_
#define NETGRAPH_FCGI_FASTCGI_RECORD_H_

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netgraph::fcgi::fastcgi {

inline constexpr std::size_t kHeaderBytes = 8;
inline constexpr std::size_t kMaxContentBytes = 65535;

enum RecordType : std::uint8_t {
  kBeginRequest = 1,
  kAbortRequest = 2,
  kEndRequest = 3,
  kParams = 4,
  kStdin = 5,
  kStdout = 6,
  kStderr = 7,
  kData = 8,
  kGetValues = 9,
  kGetValuesResult = 10,
  kUnknownType = 11,
};

enum ProtocolStatus : std::uint8_t {
  kRequestComplete = 0,
  kCantMultiplex = 1,
  kOverloaded = 2,
  kUnknownRole = 3,
};

struct Limits {
  std::size_t max_params_bytes = 64 * 1024;  // the PARAMS stream of one request
  // The body kept; the rest of a longer one is read and dropped (Request::body_too_large).
  std::size_t max_stdin_bytes = 1 << 20;
  int max_connections = 1;  // what GET_VALUES answers for FCGI_MAX_CONNS
};

// One request as it arrived. `params` view `params_stream`.
struct Request {
  std::uint16_t id = 0;
  bool keep_connection = false;  // FCGI_KEEP_CONN: the web server reuses the connection
  std::string params_stream;
  std::vector<std::pair<std::string_view, std::string_view>> params;
  std::string body;
  bool body_too_large = false;  // the body went past Limits::max_stdin_bytes: answer 413
};

// Decodes a name-value pair stream (FastCGI 1.0, section 3.4) into `pairs` (views of `stream`).
// False when it is malformed (a length past the end).
bool DecodeNameValuePairs(std::string_view stream,
                          std::vector<std::pair<std::string_view, std::string_view>>* pairs);

// Appends one name-value pair in FastCGI's encoding.
void AppendNameValuePair(std::string* out, std::string_view name, std::string_view value);

// Appends records of `type` for request `id` carrying `content` (split at 65535 bytes; one empty
// record when `content` is empty).
void AppendRecords(std::string* out, RecordType type, std::uint16_t id, std::string_view content);

// Appends an END_REQUEST record.
void AppendEndRequest(std::string* out, std::uint16_t id, std::uint32_t app_status,
                      ProtocolStatus status);

// A response for request `id` as a STDOUT stream of `parts` (concatenated) ended by an empty STDOUT
// and END_REQUEST, ready for one writev(2): the record headers live here, the parts are referred
// to, not copied, and must outlive `segments`.
class ResponseFrames {
 public:
  ResponseFrames(std::uint16_t id, std::initializer_list<std::string_view> parts);
  ResponseFrames(const ResponseFrames&) = delete;
  ResponseFrames& operator=(const ResponseFrames&) = delete;
  std::vector<iovec>& segments() { return segments_; }

 private:
  std::string headers_;
  std::vector<iovec> segments_;
};

class RequestAssembler {
 public:
  enum class Progress {
    kNeedMore,  // nothing complete yet
    kReady,     // request() is complete; call Next() when it is answered
    kFailed,    // a protocol violation or a limit: close the connection (error() says which)
  };

  explicit RequestAssembler(Limits limits) : limits_(limits) {}

  // Consumes whole records from the front of `input` (erasing them) until a request is complete
  // or more bytes are needed. Replies the protocol asks for (management answers, refusals) are
  // appended to `replies` and must be sent before any response that follows.
  Progress Consume(std::string& input, std::string* replies);

  const Request& request() const { return request_; }
  // True while a request has begun and is not yet answered.
  bool in_request() const { return state_ != State::kIdle; }
  std::string_view error() const { return error_; }
  // After answering the ready request: starts waiting for the next one.
  void Next();

 private:
  enum class State { kIdle, kParams, kStdin, kReady };

  Progress Fail(std::string_view why);
  bool Management(std::uint8_t type, std::string_view content, std::string* replies);

  Limits limits_;
  State state_ = State::kIdle;
  Request request_;
  std::string error_;
};

}  // namespace netgraph::fcgi::fastcgi

#endif  // NETGRAPH_FCGI_FASTCGI_RECORD_H_
