// Entity tags (RFC 9110, section 8.8.3) for GraphQL answers, and the If-None-Match precondition
// (section 13.1.2) a GET of one is answered under. A tag names one answer (its digest,
// core/api/answer_key.h) in one media type: the same data as application/json and as
// application/graphql-response+json are two representations, so their strong tags differ.
#ifndef NETGRAPH_FCGI_HTTP_ENTITY_TAG_H_
#define NETGRAPH_FCGI_HTTP_ENTITY_TAG_H_

#include <string>
#include <string_view>

namespace netgraph::fcgi {

// The strong entity tag, quotes included, of the answer of digest `digest` (32 hex digits) under
// the media type `representation` names (one letter: 'g' for application/graphql-response+json,
// 'j' for application/json): "j-<digest>".
std::string EntityTag(char representation, std::string_view digest);

// Whether an If-None-Match field value names `tag` (an EntityTag), so a GET of it is answered
// 304: "*", or a comma-separated list of entity tags one of which matches by the weak comparison
// (W/"x" matches "x": nginx's gzip filter weakens the tags it passes on). A malformed list matches
// nothing (the request is answered in full).
bool IfNoneMatchNames(std::string_view field_value, std::string_view tag);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_ENTITY_TAG_H_
