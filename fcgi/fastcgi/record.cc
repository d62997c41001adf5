#include "fcgi/fastcgi/record.h"

#include <string>

namespace netgraph::fcgi::fastcgi {
namespace {

constexpr std::uint8_t kVersion = 1;
constexpr std::uint16_t kResponderRole = 1;
constexpr std::uint8_t kKeepConnectionFlag = 1;

void AppendHeader(std::string* out, std::uint8_t type, std::uint16_t id, std::size_t length) {
  const char header[kHeaderBytes] = {static_cast<char>(kVersion),
                                     static_cast<char>(type),
                                     static_cast<char>(id >> 8),
                                     static_cast<char>(id & 0xff),
                                     static_cast<char>(length >> 8),
                                     static_cast<char>(length & 0xff),
                                     0,
                                     0};
  out->append(header, kHeaderBytes);
}

std::uint8_t Byte(std::string_view bytes, std::size_t at) {
  return static_cast<std::uint8_t>(bytes[at]);
}

// Reads one length of a name-value pair at `*at`; false past the end of `stream`.
bool ReadLength(std::string_view stream, std::size_t* at, std::size_t* length) {
  if (*at >= stream.size()) return false;
  const std::uint8_t first = Byte(stream, *at);
  if ((first & 0x80) == 0) {
    *length = first;
    *at += 1;
    return true;
  }
  if (stream.size() - *at < 4) return false;
  *length = (static_cast<std::size_t>(first & 0x7f) << 24) |
            (static_cast<std::size_t>(Byte(stream, *at + 1)) << 16) |
            (static_cast<std::size_t>(Byte(stream, *at + 2)) << 8) | Byte(stream, *at + 3);
  *at += 4;
  return true;
}

void AppendLength(std::string* out, std::size_t length) {
  if (length < 0x80) {
    out->push_back(static_cast<char>(length));
    return;
  }
  out->push_back(static_cast<char>(((length >> 24) & 0x7f) | 0x80));
  out->push_back(static_cast<char>((length >> 16) & 0xff));
  out->push_back(static_cast<char>((length >> 8) & 0xff));
  out->push_back(static_cast<char>(length & 0xff));
}

}  // namespace

bool DecodeNameValuePairs(std::string_view stream,
                          std::vector<std::pair<std::string_view, std::string_view>>* pairs) {
  std::size_t at = 0;
  while (at < stream.size()) {
    std::size_t name_length = 0;
    std::size_t value_length = 0;
    if (!ReadLength(stream, &at, &name_length) || !ReadLength(stream, &at, &value_length))
      return false;
    if (name_length > stream.size() - at || value_length > stream.size() - at - name_length)
      return false;
    pairs->emplace_back(stream.substr(at, name_length),
                        stream.substr(at + name_length, value_length));
    at += name_length + value_length;
  }
  return true;
}

void AppendNameValuePair(std::string* out, std::string_view name, std::string_view value) {
  AppendLength(out, name.size());
  AppendLength(out, value.size());
  out->append(name).append(value);
}

void AppendRecords(std::string* out, RecordType type, std::uint16_t id, std::string_view content) {
  do {
    const std::string_view part = content.substr(0, kMaxContentBytes);
    AppendHeader(out, type, id, part.size());
    out->append(part);
    content.remove_prefix(part.size());
  } while (!content.empty());
}

void AppendEndRequest(std::string* out, std::uint16_t id, std::uint32_t app_status,
                      ProtocolStatus status) {
  AppendHeader(out, kEndRequest, id, 8);
  const char body[8] = {static_cast<char>(app_status >> 24),
                        static_cast<char>((app_status >> 16) & 0xff),
                        static_cast<char>((app_status >> 8) & 0xff),
                        static_cast<char>(app_status & 0xff),
                        static_cast<char>(status),
                        0,
                        0,
                        0};
  out->append(body, sizeof(body));
}

ResponseFrames::ResponseFrames(std::uint16_t id, std::initializer_list<std::string_view> parts) {
  std::size_t total = 0;
  for (std::string_view part : parts) total += part.size();
  const std::size_t records = (total + kMaxContentBytes - 1) / kMaxContentBytes;
  // Every header is written before a segment points into headers_, which therefore never moves.
  headers_.reserve((records + 1) * kHeaderBytes + 2 * kHeaderBytes);
  struct Piece {
    bool header;
    std::size_t offset;
    std::size_t length;
    const char* data;
  };
  std::vector<Piece> pieces;
  pieces.reserve(records * 2 + parts.size() + 1);
  auto part = parts.begin();
  std::size_t used = 0;  // of *part
  std::size_t left = total;
  while (left > 0) {
    const std::size_t length = left < kMaxContentBytes ? left : kMaxContentBytes;
    pieces.push_back({true, headers_.size(), kHeaderBytes, nullptr});
    AppendHeader(&headers_, kStdout, id, length);
    std::size_t needed = length;
    while (needed > 0) {
      while (used == part->size()) {
        ++part;
        used = 0;
      }
      const std::size_t take = std::min(needed, part->size() - used);
      pieces.push_back({false, 0, take, part->data() + used});
      used += take;
      needed -= take;
    }
    left -= length;
  }
  const std::size_t tail = headers_.size();
  AppendHeader(&headers_, kStdout, id, 0);
  AppendEndRequest(&headers_, id, 0, kRequestComplete);
  pieces.push_back({true, tail, headers_.size() - tail, nullptr});
  segments_.reserve(pieces.size());
  for (const Piece& piece : pieces) {
    const char* base = piece.header ? headers_.data() + piece.offset : piece.data;
    segments_.push_back({const_cast<char*>(base), piece.length});
  }
}

RequestAssembler::Progress RequestAssembler::Fail(std::string_view why) {
  error_ = why;
  return Progress::kFailed;
}

bool RequestAssembler::Management(std::uint8_t type, std::string_view content,
                                  std::string* replies) {
  if (type != kGetValues) {
    AppendHeader(replies, kUnknownType, 0, 8);
    const char body[8] = {static_cast<char>(type), 0, 0, 0, 0, 0, 0, 0};
    replies->append(body, sizeof(body));
    return true;
  }
  std::vector<std::pair<std::string_view, std::string_view>> asked;
  if (!DecodeNameValuePairs(content, &asked)) return false;
  std::string answer;
  const std::string connections = std::to_string(limits_.max_connections);
  for (const auto& [name, value] : asked) {
    if (name == "FCGI_MAX_CONNS" || name == "FCGI_MAX_REQS") {
      AppendNameValuePair(&answer, name, connections);
    } else if (name == "FCGI_MPXS_CONNS") {
      AppendNameValuePair(&answer, name, "0");
    }
  }
  if (answer.size() > kMaxContentBytes) return false;
  AppendRecords(replies, kGetValuesResult, 0, answer);
  return true;
}

RequestAssembler::Progress RequestAssembler::Consume(std::string& input, std::string* replies) {
  if (state_ == State::kReady) return Progress::kReady;
  std::size_t at = 0;
  Progress progress = Progress::kNeedMore;
  while (progress == Progress::kNeedMore && input.size() - at >= kHeaderBytes) {
    const std::string_view header(input.data() + at, kHeaderBytes);
    const std::uint8_t type = Byte(header, 1);
    const std::uint16_t id = static_cast<std::uint16_t>(Byte(header, 2) << 8 | Byte(header, 3));
    const std::size_t length = static_cast<std::size_t>(Byte(header, 4) << 8 | Byte(header, 5));
    const std::size_t padding = Byte(header, 6);
    if (Byte(header, 0) != kVersion) return Fail("unsupported FastCGI version");
    if (input.size() - at < kHeaderBytes + length + padding) break;
    const std::string_view content(input.data() + at + kHeaderBytes, length);
    at += kHeaderBytes + length + padding;

    if (id == 0) {
      if (!Management(type, content, replies)) return Fail("malformed management record");
      continue;
    }
    if (type == kBeginRequest) {
      if (length != 8) return Fail("malformed BEGIN_REQUEST");
      if (state_ != State::kIdle) {
        // This worker serves one request per connection at a time (FCGI_MPXS_CONNS is 0).
        AppendEndRequest(replies, id, 0, kCantMultiplex);
        continue;
      }
      const std::uint16_t role =
          static_cast<std::uint16_t>(Byte(content, 0) << 8 | Byte(content, 1));
      if (role != kResponderRole) {
        AppendEndRequest(replies, id, 0, kUnknownRole);
        continue;
      }
      request_.id = id;
      request_.keep_connection = (Byte(content, 2) & kKeepConnectionFlag) != 0;
      request_.params_stream.clear();
      request_.params.clear();
      request_.body.clear();
      request_.body_too_large = false;
      state_ = State::kParams;
      continue;
    }
    // Records of requests refused above, or of none, are dropped.
    if (state_ == State::kIdle || id != request_.id) continue;
    switch (type) {
      case kAbortRequest:
        AppendEndRequest(replies, id, 0, kRequestComplete);
        state_ = State::kIdle;
        if (!request_.keep_connection) return Fail("request aborted");
        break;
      case kParams:
        if (state_ != State::kParams) return Fail("PARAMS after the parameters ended");
        if (length == 0) {
          if (!DecodeNameValuePairs(request_.params_stream, &request_.params))
            return Fail("malformed PARAMS");
          state_ = State::kStdin;
        } else if (request_.params_stream.size() + length > limits_.max_params_bytes) {
          return Fail("PARAMS beyond their limit");
        } else {
          request_.params_stream.append(content);
        }
        break;
      case kStdin:
        if (state_ != State::kStdin) return Fail("STDIN before the parameters ended");
        if (length == 0) {
          state_ = State::kReady;
          progress = Progress::kReady;
        } else if (request_.body_too_large ||
                   request_.body.size() + length > limits_.max_stdin_bytes) {
          request_.body_too_large = true;
          request_.body.clear();
        } else {
          request_.body.append(content);
        }
        break;
      case kData:
        break;  // the filter role's stream: not for a responder
      default:
        return Fail("unexpected record type");
    }
  }
  input.erase(0, at);
  return progress;
}

void RequestAssembler::Next() {
  if (state_ == State::kReady) state_ = State::kIdle;
}

}  // namespace netgraph::fcgi::fastcgi
