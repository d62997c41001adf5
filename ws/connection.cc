#include "ws/connection.h"

#include <libwebsockets.h>

#include <cstring>
#include <exception>
#include <string_view>
#include <utility>

#include "core/log.h"
#include "ws/messages.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

// How long a closing connection may take to let its close frame out before it is cut off.
constexpr int kCloseGraceSeconds = 5;
// What the close line says of a client hung up on for not answering pings: no close frame went
// either way (RFC 6455's 1006, never sent on the wire).
constexpr int kNoPongCloseCode = 1006;
// What a ping carries. Not nothing: libwebsockets 4.1 passes an empty pong to no callback
// (lib/roles/ws/ops-ws.c), and the pong, which echoes the ping's payload, must reach OnPong.
constexpr std::string_view kPingPayload = "netgraph";
// lws_write's opcode for a close frame. libwebsockets 4.1 keeps LWS_WRITE_CLOSE out of its public
// header (lws-write.h: "handled by lws_close_reason()") but frames it like PING and PONG.
constexpr auto kWriteClose = static_cast<lws_write_protocol>(4);

// `text` cut to at most `limit` bytes without splitting a UTF-8 sequence.
std::string Utf8Prefix(std::string_view text, std::size_t limit) {
  if (text.size() <= limit) return std::string(text);
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

}  // namespace

Connection::Connection(lws* wsi, const Options& options, Backend& backend,
                       std::vector<unsigned char>& write_buffer, ConnectionIdentity identity)
    : wsi_(wsi),
      options_(options),
      backend_(backend),
      write_buffer_(write_buffer),
      identity_(std::move(identity)),
      keepalive_(opened_at_, options.ping_interval, options.pong_timeout),
      queue_(options.queue) {}

Connection::~Connection() = default;

void Connection::Start(std::unique_ptr<Session> session) {
  session_ = std::move(session);
  session_->Open();
}

void Connection::Refuse(int code, std::string_view reason) {
  log::Debug("refusing a connection from " + peer_address() + ": " + std::to_string(code) + " " +
             std::string(reason) + Traced());
  Close(code, reason);
}

std::string Connection::Traced() const {
  std::string text = " (";
  if (!identity_.request_id.empty()) text += "request_id " + identity_.request_id + ", ";
  return text + "trace_id " + identity_.trace.trace_id + ")";
}

void Connection::OnReceive(const char* data, std::size_t length, bool message_complete) {
  if (closing_ || !session_) return;
  if (incoming_.size() + length > options_.max_message_bytes) {
    incoming_ = std::string();
    return Close(close_code::kMessageTooBig, "Message too big");
  }
  incoming_.append(data, length);
  if (!message_complete) return;
  std::string message = std::move(incoming_);
  incoming_ = std::string();
  try {
    session_->OnMessage(message);
  } catch (const std::exception& e) {
    log::Error("handling a message from " + peer_address() + ": " + e.what() + Traced());
    Close(close_code::kInternalError, "Internal server error");
  }
}

int Connection::OnWritable() {
  if (hang_up_) return -1;
  if (ping_due_ && !closing_) {
    ping_due_ = false;
    if (write_buffer_.size() < LWS_PRE + kPingPayload.size()) {
      write_buffer_.resize(LWS_PRE + kPingPayload.size());
    }
    std::memcpy(write_buffer_.data() + LWS_PRE, kPingPayload.data(), kPingPayload.size());
    if (lws_write(wsi_, write_buffer_.data() + LWS_PRE, kPingPayload.size(), LWS_WRITE_PING) < 0) {
      return -1;
    }
    if (!queue_.empty()) lws_callback_on_writable(wsi_);
    return 0;
  }
  if (queue_.empty()) {
    if (!closing_) return 0;
    // The close frame went out whole on the previous call (lws holds WRITEABLE back until what it
    // buffered is written): hang up.
    if (close_sent_) return -1;
    return SendCloseFrame();
  }
  const bool written = WriteText(queue_.front());
  queue_.Pop();
  if (!written) return -1;
  if (!queue_.empty() || closing_) lws_callback_on_writable(wsi_);
  return 0;
}

bool Connection::WriteText(const OutgoingMessage& message) {
  const std::size_t size = message.size();
  if (write_buffer_.size() < LWS_PRE + size) write_buffer_.resize(LWS_PRE + size);
  message.CopyTo(write_buffer_.data() + LWS_PRE);
  if (lws_write(wsi_, write_buffer_.data() + LWS_PRE, size, LWS_WRITE_TEXT) <
      static_cast<int>(size)) {
    return false;
  }
  WsMetrics().bytes_sent_total += size;
  return true;
}

int Connection::SendCloseFrame() {
  // lws would send the frame set with lws_close_reason() itself when a callback returns -1, but
  // Debian's libwebsockets 4.1.6 is built with _DEBUG, and its libuv path then closes the
  // connection a second time at once ("close_and_handled uv repeat test"), which drops the frame.
  // So the frame is written here, and the connection closed on the next WRITEABLE.
  std::size_t size = 2 + close_reason_.size();
  if (write_buffer_.size() < LWS_PRE + size) write_buffer_.resize(LWS_PRE + size);
  unsigned char* frame = write_buffer_.data() + LWS_PRE;
  frame[0] = static_cast<unsigned char>((close_code_ >> 8) & 0xFF);
  frame[1] = static_cast<unsigned char>(close_code_ & 0xFF);
  std::memcpy(frame + 2, close_reason_.data(), close_reason_.size());
  if (lws_write(wsi_, frame, size, kWriteClose) < static_cast<int>(size)) return -1;
  close_sent_ = true;
  lws_callback_on_writable(wsi_);
  return 0;
}

void Connection::OnTimer() {
  if (closing_ || !session_) return;
  try {
    session_->OnTimer();
  } catch (const std::exception& e) {
    log::Error("timer of a connection from " + peer_address() + ": " + e.what() + Traced());
    Close(close_code::kInternalError, "Internal server error");
  }
}

void Connection::OnPong() { keepalive_.Confirmed(std::chrono::steady_clock::now()); }

void Connection::CheckKeepalive(std::chrono::steady_clock::time_point now) {
  if (closing_) return;  // the close has a deadline of its own
  switch (keepalive_.Check(now)) {
    case Keepalive::Due::kNothing:
      return;
    case Keepalive::Due::kPing:
      ping_due_ = true;
      lws_callback_on_writable(wsi_);
      return;
    case Keepalive::Due::kHangUp:
      log::Debug("hanging up on " + peer_address() + ": no pong" + Traced());
      closing_ = true;
      close_code_ = kNoPongCloseCode;
      close_reason_ = "No pong";
      WsMetrics().CountClose(kNoPongCloseCode);
      HangUp();
      return;
  }
}

void Connection::HangUp() {
  hang_up_ = true;
  lws_set_timer_usecs(wsi_, LWS_SET_TIMER_USEC_CANCEL);
  // Hung up from the next WRITEABLE, or by lws's timeout when the socket never gets writable.
  lws_set_timeout(wsi_, PENDING_TIMEOUT_USER_OK, 1);
  lws_callback_on_writable(wsi_);
}

void Connection::OnPeerClose(const unsigned char* payload, std::size_t length) {
  if (closing_ || peer_closed_) return;  // the client answers our close frame
  peer_closed_ = true;
  if (length >= 2) peer_close_code_ = (payload[0] << 8) | payload[1];
}

void Connection::OnClosed() {
  if (session_) session_->OnClosed();
  CloseLog line;
  if (closing_ && !peer_closed_) {
    line.closed_by = "server";
    line.code = close_code_;
    line.reason = close_reason_;
  } else {
    line.closed_by = "client";
    line.code = peer_close_code_;
  }
  line.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - opened_at_);
  LogClose(identity_, line);
}

void Connection::LogOperation(const OperationLog& line) { ws::LogOperation(identity_, line); }

void Connection::Send(OutgoingMessage message) {
  if (closing_ || hang_up_) return;
  // Nothing waits to be written, and the socket takes more: the message goes out at once, without
  // the round of WRITEABLE (two changes of the socket's poll events, which libuv makes as a removal
  // and an addition, and a wake-up), which cost most of a delivery's CPU. Whatever the socket does
  // not take at once lws keeps and writes as the socket drains (and lws_send_pipe_choked says
  // choked until then), so later messages queue behind it.
  if (queue_.empty() && !ping_due_ && !lws_send_pipe_choked(wsi_)) {
    if (!WriteText(message)) HangUp();  // the socket failed
    return;
  }
  if (!queue_.Push(std::move(message))) {
    log::Warn("closing a slow consumer from " + peer_address() + ": " +
              std::to_string(queue_.size()) + " messages (" + std::to_string(queue_.bytes()) +
              " bytes) not yet written" + Traced());
    queue_.Clear();
    return Close(close_code::kSlowConsumer, "Slow consumer");
  }
  lws_callback_on_writable(wsi_);
}

void Connection::Close(int code, std::string_view reason) {
  if (closing_) return;
  closing_ = true;
  close_code_ = code;
  WsMetrics().CountClose(code);
  close_reason_ = Utf8Prefix(reason, kMaxCloseReasonBytes);
  lws_set_timer_usecs(wsi_, LWS_SET_TIMER_USEC_CANCEL);
  lws_set_timeout(wsi_, PENDING_TIMEOUT_USER_OK, kCloseGraceSeconds);
  lws_callback_on_writable(wsi_);
}

bool Connection::IdleAnonymous(std::chrono::steady_clock::time_point now,
                               std::chrono::milliseconds timeout) {
  if (closing_ || !session_) return false;
  if (token_presented_ || !session_->running().empty()) {
    active_at_ = now;
    return false;
  }
  return now - active_at_ >= timeout;
}

Authentication Connection::Authenticate(std::string_view authorization) {
  Authentication authentication = backend_.Authenticate(authorization);
  token_presented_ = authentication.context != nullptr && !authorization.empty();
  return authentication;
}

StartResult Connection::Start(Subscriber& subscriber, const std::string& id,
                              const OperationRequest& request, graphql::RequestContext* context) {
  active_at_ = std::chrono::steady_clock::now();
  return backend_.Start(subscriber, id, request, context);
}

void Connection::Stop(Subscriber& subscriber, const std::string& id) {
  active_at_ = std::chrono::steady_clock::now();
  backend_.Stop(subscriber, id);
}

void Connection::StopAll(Subscriber& subscriber) { backend_.StopAll(subscriber); }

void Connection::SetTimer(std::chrono::milliseconds delay) {
  lws_set_timer_usecs(wsi_, static_cast<lws_usec_t>(delay.count()) * 1000);
}

}  // namespace netgraph::ws
