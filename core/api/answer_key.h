// The read cache's key for the whole answer to an anonymous query of public reads (core/api/
// operation.h keeps those answers): everything such an answer depends on besides the data. That
// is the query text, the operation name (an empty one told from none), and the values the
// operation's own variables coerce to. Variables the operation does not define change nothing
// and are left out, so junk variables (GraphQL ignores them) can neither make one answer many
// entries nor one entry large; coercion also makes `{"a":1,"b":2}` and `{"b":2,"a":1}`, or an
// absent variable and its default, one entry.
//
// Beside the key, the answer's digest: what a client that holds the answer can name it by (HTTP's
// entity tag, fcgi/http/graphql_http.h). It is made from the answer itself, not from any counter of
// changes, so equal answers have equal digests on every worker and every host, an answer that a
// change did not touch keeps its digest, and any change of the answer changes it.
//
// A key is held as long as its answer, so the read cache counts its bytes (read_cache.h), and a
// key longer than kMaxAnswerKeyBytes is not made at all: that request runs uncached (the answers
// of its fields are still cached).
#ifndef NETGRAPH_CORE_API_ANSWER_KEY_H_
#define NETGRAPH_CORE_API_ANSWER_KEY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/operation_request.h"
#include "core/graphql/engine.h"

namespace netgraph::api {

// The longest key kept: 20 times the site's own queries (web/graph.js), and 64 keys this long (the
// cache's entries per worker) take 256 KiB of its 4 MiB (core/api/service.cc).
inline constexpr std::size_t kMaxAnswerKeyBytes = 4 * 1024;

// The key of `request`'s whole answer (`document` is its query, prepared by `engine`); nullopt
// when the answer is not to be kept under one: the variables do not coerce (Execute answers with
// a request error, never kept anyway), or the key would be longer than kMaxAnswerKeyBytes.
std::optional<std::string> AnswerKey(graphql::Engine& engine,
                                     const graphql::PreparedDocument& document,
                                     const OperationRequest& request);

// The digest of a whole answer whose data serialises as `data` (the response body follows from it):
// the first 128 bits of its SHA-256, as 32 lowercase hex digits. Answers with errors get none.
std::string AnswerDigest(std::string_view data);

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_ANSWER_KEY_H_
