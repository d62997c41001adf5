// What a pool worker reads from its FastCGI connections (fcgi/fastcgi/record.h). Only the web
// server should reach the socket, but a worker must not be the weak point if something else does.
// Input: the first byte chooses how the rest arrives (its size modulo 64, plus one, is the size of
// each read); the rest is the byte stream.
//
// Checked for every input:
//  - consuming it never crashes, and what is held stays within the limits (parameters, body);
//  - it gives the same requests, replies and verdict whether it arrives at once or in pieces, so a
//    request never depends on how the kernel split the stream;
//  - every ready request's parameters decode from its own PARAMS stream, and encoding them again
//    with AppendNameValuePair and AppendRecords, then consuming that, gives the same request back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include "fcgi/fastcgi/record.h"

namespace {

using netgraph::fcgi::fastcgi::AppendNameValuePair;
using netgraph::fcgi::fastcgi::AppendRecords;
using netgraph::fcgi::fastcgi::kBeginRequest;
using netgraph::fcgi::fastcgi::kParams;
using netgraph::fcgi::fastcgi::kStdin;
using netgraph::fcgi::fastcgi::Limits;
using netgraph::fcgi::fastcgi::Request;
using netgraph::fcgi::fastcgi::RequestAssembler;

// Small limits, so that inputs of a few kilobytes reach them.
constexpr Limits kLimits{.max_params_bytes = 512, .max_stdin_bytes = 1024, .max_connections = 4};

[[noreturn]] void Fail(const std::string& what, std::string_view detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

// A request written out field by field, so that two runs can be compared as strings.
std::string Describe(const Request& request) {
  std::string out = "request " + std::to_string(request.id) +
                    (request.keep_connection ? " keep" : "") +
                    (request.body_too_large ? " too-large" : "") + "\n";
  for (const auto& [name, value] : request.params) {
    out += std::to_string(name.size()) + ":" + std::string(name) + "=" +
           std::to_string(value.size()) + ":" + std::string(value) + "\n";
  }
  out += "body " + std::to_string(request.body.size()) + ":" + request.body + "\n";
  return out;
}

void CheckLimits(const Request& request) {
  if (request.params_stream.size() > kLimits.max_params_bytes)
    Fail("PARAMS held beyond their limit", request.params_stream);
  if (request.body.size() > kLimits.max_stdin_bytes)
    Fail("body held beyond its limit", request.body);
}

// Encodes `request` as a web server would send it and consumes that: the same request must come
// out.
void CheckRoundTrip(const Request& request) {
  std::string stream;
  for (const auto& [name, value] : request.params) AppendNameValuePair(&stream, name, value);
  const char begin[8] = {0, 1, static_cast<char>(request.keep_connection ? 1 : 0)};
  std::string input;
  AppendRecords(&input, kBeginRequest, request.id, std::string_view(begin, sizeof begin));
  if (!stream.empty()) AppendRecords(&input, kParams, request.id, stream);
  AppendRecords(&input, kParams, request.id, "");
  if (!request.body.empty()) AppendRecords(&input, kStdin, request.id, request.body);
  AppendRecords(&input, kStdin, request.id, "");

  RequestAssembler assembler(kLimits);
  std::string replies;
  if (assembler.Consume(input, &replies) != RequestAssembler::Progress::kReady)
    Fail("a re-encoded request did not come back", assembler.error());
  Request expected = request;
  expected.body_too_large = false;  // what was dropped is not sent again
  if (Describe(assembler.request()) != Describe(expected))
    Fail("a re-encoded request came back different",
         Describe(assembler.request()) + "---\n" + Describe(expected));
  if (!input.empty() || !replies.empty()) Fail("a re-encoded request left bytes or replies", input);
}

// Feeds `data` in reads of `piece` bytes and writes down everything that comes out.
std::string Transcript(std::string_view data, std::size_t piece, bool check) {
  RequestAssembler assembler(kLimits);
  std::string input;
  std::string out;
  for (std::size_t at = 0; at < data.size(); at += piece) {
    input.append(data.substr(at, piece));
    for (;;) {
      std::string replies;
      const RequestAssembler::Progress progress = assembler.Consume(input, &replies);
      // Replies are compared as the bytes sent, which one read or several may produce.
      out += replies;
      if (progress == RequestAssembler::Progress::kFailed)
        return out + "failed: " + std::string(assembler.error()) + "\n";
      if (progress == RequestAssembler::Progress::kNeedMore) break;
      if (check) {
        CheckLimits(assembler.request());
        CheckRoundTrip(assembler.request());
      }
      out += Describe(assembler.request());
      assembler.Next();
    }
    if (input.size() > data.size()) Fail("the assembler holds more than it was given", input);
  }
  return out + "need more " + std::to_string(input.size()) + "\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t piece = bytes[0] % 64 + 1;
  const std::string_view data(reinterpret_cast<const char*>(bytes + 1), size - 1);
  const std::string whole = Transcript(data, data.size() + 1, /*check=*/true);
  const std::string pieces = Transcript(data, piece, /*check=*/false);
  if (whole != pieces)
    Fail("the stream read in pieces gave another result", whole + "---\n" + pieces);
  return 0;
}
