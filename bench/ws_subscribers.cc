// The subscribers of bench/ws-fanout.mjs: N WebSocket connections speaking graphql-transport-ws
// through nginx, each subscribed to one document, all on one epoll loop in one thread. It is in
// C++ for the reason bench/write_client.cc is: the client shares the two cores with the servers it
// measures, and the Node client it replaces (`ws` sockets, one process) spent 9.6 µs of CPU per
// delivery, which at 10,000 subscribers is 96 ms of one core per update (docs/benchmarks.md,
// "The client, as lean as the servers").
//
//   ws_subscribers --url ws://HOST:PORT/PATH --clients N --updates M --marker TEXT
//                  --subscribe JSON [--connect-batch 200] [--drain-seconds 60] [--deflate 1]
//
// It connects the clients, at most --connect-batch handshakes at a time, and sends each one
// connection_init and, on its connection_ack, the --subscribe message. A delivery is a text
// message that holds --marker followed by an update's index (a node id the publisher chose):
// index -1 is a warm-up, 0 to M-1 a measured update; other messages are ignored. Lines on
// standard output tell the driver where it is; standard input drives it:
//
//   out "subscribed SECONDS"  every client has sent its subscribe (SECONDS: how long connecting
//   took) out "warm"                every client has received a warm-up in  "start" the measured
//   run begins: counters start now; out "started" in  "times T0 ... TM-1"   when each update was
//   published (CLOCK_MONOTONIC nanoseconds, as
//                             Node's process.hrtime.bigint()); once every delivery arrived or
//                             --drain-seconds passed, out one JSON line: the result
//   in  "close"               closes every connection (status 1000) and exits 0
//
// The result: {"delivered", "unexpected_closes", "payload_bytes" (the last delivery's),
// "wire_bytes" (read off the sockets since "start", frame headers and pings included),
// "latencies_ms": {"p50", "p90", "p99", "max"} (receipt minus publish), "seconds" (first publish to
// last receipt), "cpu_seconds" (this process's user + system time since "start")}.
// With --deflate 1 each client offers permessage-deflate (RFC 7692) and inflates the compressed
// messages (zlib), for docs/benchmarks.md's "permessage-deflate: measured, not offered"; a server
// that does not accept it fails the run.
// Exit status 1 when a connection fails before every client subscribed, or on a bad argument.
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

int64_t NowNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "ws_subscribers: %s\n", why.c_str());
  std::exit(1);
}

struct Options {
  std::string host, port, path;
  std::size_t clients = 0;
  std::size_t updates = 0;
  std::string marker;
  std::string subscribe;
  std::size_t connect_batch = 200;
  int drain_seconds = 60;
  bool deflate = false;
};

Options Parse(int argc, char** argv) {
  std::map<std::string, std::string> given;
  for (int i = 1; i + 1 < argc; i += 2) given[argv[i]] = argv[i + 1];
  Options options;
  const std::string url = given["--url"];
  const std::string scheme = "ws://";
  const std::size_t slash = url.find('/', scheme.size());
  const std::size_t colon = url.rfind(':', slash);
  if (url.rfind(scheme, 0) != 0 || slash == std::string::npos || colon < scheme.size()) {
    Fail("--url must be ws://HOST:PORT/PATH, not '" + url + "'");
  }
  options.host = url.substr(scheme.size(), colon - scheme.size());
  options.port = url.substr(colon + 1, slash - colon - 1);
  options.path = url.substr(slash);
  options.clients = std::strtoul(given["--clients"].c_str(), nullptr, 10);
  options.updates = std::strtoul(given["--updates"].c_str(), nullptr, 10);
  options.marker = given["--marker"];
  options.subscribe = given["--subscribe"];
  if (given.count("--connect-batch"))
    options.connect_batch = std::strtoul(given["--connect-batch"].c_str(), nullptr, 10);
  if (given.count("--drain-seconds"))
    options.drain_seconds = std::atoi(given["--drain-seconds"].c_str());
  options.deflate = given["--deflate"] == "1";
  if (options.clients == 0 || options.updates == 0 || options.marker.empty() ||
      options.subscribe.empty() || options.connect_batch == 0) {
    Fail("--clients, --updates, --marker, --subscribe are required (and --connect-batch > 0)");
  }
  return options;
}

enum class State { kConnecting, kHandshake, kAwaitingAck, kSubscribed, kClosed };

struct Connection {
  int fd = -1;
  State state = State::kConnecting;
  bool warm = false;
  bool writing = false;  // EPOLLOUT is on: `out` holds what the socket did not take
  std::string in;
  std::string out;
  // permessage-deflate: the inflater (raw deflate), and whether the server starts each message
  // with a fresh window (server_no_context_takeover).
  std::unique_ptr<z_stream, void (*)(z_stream*)> inflater{nullptr, [](z_stream* stream) {
                                                            inflateEnd(stream);
                                                            delete stream;
                                                          }};
  bool fresh_window = false;
};

enum Opcode : uint8_t { kContinuation = 0, kText = 1, kClose = 8, kPing = 9, kPong = 10 };

class Subscribers {
 public:
  explicit Subscribers(Options options)
      : options_(std::move(options)), connections_(options_.clients) {
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(options_.host.c_str(), options_.port.c_str(), &hints, &found) != 0 ||
        found == nullptr) {
      Fail("cannot resolve " + options_.host + ":" + options_.port);
    }
    std::memcpy(&address_, found->ai_addr, found->ai_addrlen);
    address_length_ = found->ai_addrlen;
    freeaddrinfo(found);
    receipts_.reserve(options_.clients * options_.updates);
    Watch(STDIN_FILENO, EPOLLIN, kStdin);
  }

  int Run() {
    connect_started_ = NowNs();
    while (started_connections_ < options_.clients && started_connections_ < options_.connect_batch)
      StartNext();
    epoll_event events[256];
    for (;;) {
      const int ready = epoll_wait(epoll_, events, 256, WaitMs());
      if (ready < 0 && errno != EINTR) Fail(std::string("epoll_wait: ") + std::strerror(errno));
      for (int i = 0; i < ready; ++i) {
        if (events[i].data.u64 == kStdin) {
          if (!ReadCommands()) return 0;
          continue;
        }
        Connection& connection = connections_[events[i].data.u64];
        if (events[i].events & EPOLLOUT) Writable(events[i].data.u64, connection);
        if (connection.state != State::kClosed &&
            (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
          Readable(connection);
        }
      }
      if (!times_.empty() && !reported_ &&
          (receipts_.size() >= options_.clients * options_.updates || NowNs() >= drain_deadline_)) {
        Report();
      }
    }
  }

 private:
  static constexpr uint64_t kStdin = ~uint64_t{0};

  void Watch(int fd, uint32_t events, uint64_t tag, int op = EPOLL_CTL_ADD) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = tag;
    if (epoll_ctl(epoll_, op, fd, &event) != 0)
      Fail(std::string("epoll_ctl: ") + std::strerror(errno));
  }

  int WaitMs() const {
    if (times_.empty() || reported_) return -1;
    return static_cast<int>(std::max<int64_t>(0, (drain_deadline_ - NowNs()) / 1'000'000) + 1);
  }

  void StartNext() {
    const std::size_t index = started_connections_++;
    Connection& connection = connections_[index];
    connection.fd = socket(address_.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (connection.fd < 0) Fail(std::string("socket: ") + std::strerror(errno));
    const int one = 1;
    setsockopt(connection.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(connection.fd, reinterpret_cast<const sockaddr*>(&address_), address_length_) !=
            0 &&
        errno != EINPROGRESS) {
      Fail(std::string("connect: ") + std::strerror(errno));
    }
    connection.writing = true;
    Watch(connection.fd, EPOLLIN | EPOLLOUT, index);
  }

  void Writable(uint64_t index, Connection& connection) {
    if (connection.state == State::kClosed) return;
    if (connection.state == State::kConnecting) {
      int error = 0;
      socklen_t length = sizeof error;
      getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &length);
      if (error != 0) Fail(std::string("connect: ") + std::strerror(error));
      connection.state = State::kHandshake;
      connection.out = HandshakeRequest();
    }
    Flush(index, connection);
  }

  std::string HandshakeRequest() {
    static constexpr char kBase64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string key;
    for (int i = 0; i < 21; ++i) key += kBase64[random_() % 64];
    key += "A==";  // 16 random bytes' worth of base64 (the last character holds 4 bits: 'A' keeps
                   // them 0)
    return "GET " + options_.path + " HTTP/1.1\r\nHost: " + options_.host + ":" + options_.port +
           "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key +
           "\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n" +
           (options_.deflate
                ? "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n"
                : "") +
           "\r\n";
  }

  // Sends what `connection.out` holds; what the socket does not take waits for EPOLLOUT.
  void Flush(uint64_t index, Connection& connection) {
    while (!connection.out.empty()) {
      const ssize_t sent =
          send(connection.fd, connection.out.data(), connection.out.size(), MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EAGAIN) break;
        Lost(connection, std::string("send: ") + std::strerror(errno));
        return;
      }
      connection.out.erase(0, static_cast<std::size_t>(sent));
    }
    const bool writing = !connection.out.empty();
    if (writing != connection.writing) {
      connection.writing = writing;
      Watch(connection.fd, EPOLLIN | (writing ? EPOLLOUT : 0u), index, EPOLL_CTL_MOD);
    }
  }

  void SendFrame(uint64_t index, Connection& connection, Opcode opcode, std::string_view payload) {
    std::string& out = connection.out;
    out += static_cast<char>(0x80 | opcode);
    if (payload.size() > 0xffff) Fail("a message to send is over 64 KiB");
    if (payload.size() < 126) {
      out += static_cast<char>(0x80 | payload.size());
    } else {
      out += static_cast<char>(0x80 | 126);
      out += static_cast<char>(payload.size() >> 8);
      out += static_cast<char>(payload.size() & 0xff);
    }
    const uint32_t mask = random_();
    const char key[4] = {static_cast<char>(mask), static_cast<char>(mask >> 8),
                         static_cast<char>(mask >> 16), static_cast<char>(mask >> 24)};
    out.append(key, 4);
    for (std::size_t i = 0; i < payload.size(); ++i)
      out += static_cast<char>(payload[i] ^ key[i % 4]);
    Flush(index, connection);
  }

  void Readable(Connection& connection) {
    const uint64_t index = static_cast<uint64_t>(&connection - connections_.data());
    char buffer[65536];
    for (;;) {
      const ssize_t got = recv(connection.fd, buffer, sizeof buffer, 0);
      if (got == 0) return Lost(connection, "the server closed the connection");
      if (got < 0) {
        if (errno == EAGAIN) break;
        return Lost(connection, std::string("recv: ") + std::strerror(errno));
      }
      if (measuring_) wire_bytes_ += static_cast<uint64_t>(got);
      connection.in.append(buffer, static_cast<std::size_t>(got));
      if (static_cast<std::size_t>(got) < sizeof buffer) break;
    }
    const int64_t now = NowNs();
    if (connection.state == State::kHandshake) {
      const std::size_t end = connection.in.find("\r\n\r\n");
      if (end == std::string::npos) return;
      if (connection.in.rfind("HTTP/1.1 101", 0) != 0) {
        return Lost(connection, "the handshake was refused: " +
                                    connection.in.substr(0, connection.in.find("\r\n")));
      }
      if (options_.deflate) {
        const std::string head = connection.in.substr(0, end);
        if (head.find("permessage-deflate") == std::string::npos) {
          return Lost(
              connection,
              "the server did not accept permessage-deflate: netgraph-ws offers it only with "
              "bench/ws-permessage-deflate.patch applied and NETGRAPH_WS_PERMESSAGE_DEFLATE=1");
        }
        connection.fresh_window = head.find("server_no_context_takeover") != std::string::npos;
        connection.inflater.reset(new z_stream{});
        if (inflateInit2(connection.inflater.get(), -15) != Z_OK) Fail("inflateInit2 failed");
      }
      connection.in.erase(0, end + 4);
      connection.state = State::kAwaitingAck;
      SendFrame(index, connection, kText, R"({"type":"connection_init"})");
    }
    std::size_t at = 0;
    while (connection.state != State::kClosed) {
      const std::size_t available = connection.in.size() - at;
      if (available < 2) break;
      const auto* bytes = reinterpret_cast<const unsigned char*>(connection.in.data() + at);
      const auto opcode = static_cast<Opcode>(bytes[0] & 0x0f);
      if ((bytes[0] & 0x80) == 0 || opcode == kContinuation) {
        return Lost(connection, "a fragmented message (both servers send each message whole)");
      }
      uint64_t length = bytes[1] & 0x7f;
      std::size_t header = 2;
      if (length == 126) {
        if (available < 4) break;
        length = (uint64_t{bytes[2]} << 8) | bytes[3];
        header = 4;
      } else if (length == 127) {
        if (available < 10) break;
        length = 0;
        for (int i = 2; i < 10; ++i) length = (length << 8) | bytes[i];
        header = 10;
      }
      if (available - header < length) break;
      const std::string_view payload(connection.in.data() + at + header, length);
      at += header + length;
      if (opcode == kText && (bytes[0] & 0x40) != 0) {  // RSV1: a compressed message
        if (!Inflate(connection, payload))
          return Lost(connection, "a compressed message did not inflate");
        Message(index, connection, inflated_, now);
      } else if (opcode == kText) {
        Message(index, connection, payload, now);
      } else if (opcode == kPing) {
        SendFrame(index, connection, kPong, payload);
      } else if (opcode == kClose) {
        return Lost(connection, "the server sent a close frame");
      }
    }
    if (connection.state != State::kClosed) connection.in.erase(0, at);
  }

  // Inflates a compressed message into `inflated_` (RFC 7692: the sender dropped the final empty
  // block's last four bytes, which go back on before inflating).
  bool Inflate(Connection& connection, std::string_view payload) {
    z_stream* stream = connection.inflater.get();
    if (stream == nullptr) return false;
    std::string input(payload);
    input.append("\x00\x00\xff\xff", 4);
    inflated_.clear();
    stream->next_in = reinterpret_cast<Bytef*>(input.data());
    stream->avail_in = static_cast<uInt>(input.size());
    char chunk[16384];
    do {
      stream->next_out = reinterpret_cast<Bytef*>(chunk);
      stream->avail_out = sizeof chunk;
      const int status = inflate(stream, Z_SYNC_FLUSH);
      if (status != Z_OK && status != Z_BUF_ERROR) return false;
      inflated_.append(chunk, sizeof chunk - stream->avail_out);
      if (status == Z_BUF_ERROR) break;  // no progress possible: everything is out
    } while (stream->avail_in > 0 || stream->avail_out == 0);
    if (connection.fresh_window) inflateReset(stream);
    return true;
  }

  void Message(uint64_t index, Connection& connection, std::string_view payload, int64_t now) {
    if (connection.state == State::kAwaitingAck) {
      if (payload.find("connection_ack") == std::string_view::npos) {
        return Lost(connection, "expected connection_ack, got " + std::string(payload));
      }
      connection.state = State::kSubscribed;
      SendFrame(index, connection, kText, options_.subscribe);
      if (++subscribed_ == options_.clients) {
        std::printf("subscribed %.2f\n", static_cast<double>(NowNs() - connect_started_) / 1e9);
        std::fflush(stdout);
      } else if (started_connections_ < options_.clients) {
        StartNext();
      }
      return;
    }
    const std::size_t found = payload.find(options_.marker);
    if (found == std::string_view::npos) return;
    std::size_t digit = found + options_.marker.size();
    const bool negative = digit < payload.size() && payload[digit] == '-';
    if (negative) ++digit;
    int64_t update = 0;
    for (; digit < payload.size() && payload[digit] >= '0' && payload[digit] <= '9'; ++digit) {
      update = update * 10 + (payload[digit] - '0');
    }
    if (negative) {
      if (!connection.warm) {
        connection.warm = true;
        if (++warm_ == options_.clients) {
          std::printf("warm\n");
          std::fflush(stdout);
        }
      }
      return;
    }
    if (static_cast<std::size_t>(update) >= options_.updates) return;
    receipts_.push_back({static_cast<uint32_t>(update), now});
    payload_bytes_ = payload.size();
  }

  void Lost(Connection& connection, const std::string& why) {
    if (subscribed_ < options_.clients) Fail(why);
    close(connection.fd);
    connection.state = State::kClosed;
    if (!closing_) ++unexpected_closes_;
  }

  // Reads whole lines of commands; false once standard input ends or says "close".
  bool ReadCommands() {
    char buffer[65536];
    const ssize_t got = read(STDIN_FILENO, buffer, sizeof buffer);
    if (got <= 0) return CloseAll();
    commands_.append(buffer, static_cast<std::size_t>(got));
    for (std::size_t end; (end = commands_.find('\n')) != std::string::npos;) {
      std::istringstream line(commands_.substr(0, end));
      commands_.erase(0, end + 1);
      std::string command;
      line >> command;
      if (command == "start") {
        measuring_ = true;
        cpu_before_ = CpuSeconds();
        std::printf("started\n");
        std::fflush(stdout);
      } else if (command == "times") {
        for (int64_t published; line >> published;) times_.push_back(published);
        if (times_.size() != options_.updates) Fail("\"times\" must give one time per update");
        drain_deadline_ = NowNs() + int64_t{options_.drain_seconds} * 1'000'000'000;
      } else if (command == "close") {
        return CloseAll();
      }
    }
    return true;
  }

  bool CloseAll() {
    closing_ = true;
    for (std::size_t i = 0; i < started_connections_; ++i) {
      Connection& connection = connections_[i];
      if (connection.state == State::kClosed) continue;
      SendFrame(i, connection, kClose, std::string_view("\x03\xe8", 2));  // 1000: normal closure
      close(connection.fd);
      connection.state = State::kClosed;
    }
    return false;
  }

  static double CpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  }

  void Report() {
    reported_ = true;
    std::vector<double> latencies;
    latencies.reserve(receipts_.size());
    int64_t last_receipt = times_.front();
    for (const Receipt& receipt : receipts_) {
      latencies.push_back(static_cast<double>(receipt.at_ns - times_[receipt.update]) / 1e6);
      last_receipt = std::max(last_receipt, receipt.at_ns);
    }
    std::sort(latencies.begin(), latencies.end());
    const auto percentile = [&](double p) -> double {
      if (latencies.empty()) return -1;
      const auto rank =
          static_cast<std::size_t>(std::ceil(p / 100 * static_cast<double>(latencies.size())));
      return latencies[std::min(latencies.size() - 1, rank == 0 ? 0 : rank - 1)];
    };
    std::printf(
        "{\"delivered\":%zu,\"unexpected_closes\":%zu,\"payload_bytes\":%zu,\"wire_bytes\":%llu,"
        "\"latencies_ms\":{\"p50\":%.2f,\"p90\":%.2f,\"p99\":%.2f,\"max\":%.2f},\"seconds\":%.4f,"
        "\"cpu_seconds\":%.3f}\n",
        receipts_.size(), unexpected_closes_, payload_bytes_,
        static_cast<unsigned long long>(wire_bytes_), percentile(50), percentile(90),
        percentile(99), latencies.empty() ? -1.0 : latencies.back(),
        static_cast<double>(last_receipt - times_.front()) / 1e9, CpuSeconds() - cpu_before_);
    std::fflush(stdout);
  }

  struct Receipt {
    uint32_t update;
    int64_t at_ns;
  };

  Options options_;
  std::vector<Connection> connections_;
  int epoll_ = -1;
  sockaddr_storage address_{};
  socklen_t address_length_ = 0;
  std::minstd_rand random_{std::random_device{}()};
  std::size_t started_connections_ = 0;
  std::size_t subscribed_ = 0;
  std::size_t warm_ = 0;
  std::size_t unexpected_closes_ = 0;
  bool measuring_ = false;
  bool closing_ = false;
  bool reported_ = false;
  uint64_t wire_bytes_ = 0;
  std::size_t payload_bytes_ = 0;
  double cpu_before_ = 0;
  int64_t connect_started_ = 0;
  int64_t drain_deadline_ = 0;
  std::string commands_;
  std::string inflated_;
  std::vector<int64_t> times_;
  std::vector<Receipt> receipts_;
};

}  // namespace

int main(int argc, char** argv) {
  Subscribers subscribers(Parse(argc, argv));
  return subscribers.Run();
}
