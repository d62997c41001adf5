// The trusted documents of NETGRAPH_TRUSTED_DOCUMENTS: a manifest in the format graphql-codegen's
// client preset writes for persisted documents (persisted-documents.json), one JSON object mapping
// the lower-case hex SHA-256 of each document to its text. With one loaded, only those documents
// run (core/api/persisted_documents.h). Every entry is checked when the file is read: a key that is
// not the SHA-256 of its text (a manifest written with another hashAlgorithm, or edited by hand) is
// a configuration error, as is anything else that is not such an object.
#ifndef NETGRAPH_CORE_API_TRUSTED_DOCUMENTS_H_
#define NETGRAPH_CORE_API_TRUSTED_DOCUMENTS_H_

#include <map>
#include <string>
#include <string_view>

#include "core/status.h"

namespace netgraph::api {

inline constexpr std::string_view kTrustedDocumentsVariable = "NETGRAPH_TRUSTED_DOCUMENTS";

// The lower-case hex SHA-256 of `text`, as clients compute a persisted query's hash.
std::string DocumentHash(std::string_view text);

// Whether `hash` has the form of DocumentHash's: 64 lower-case hex digits.
bool IsDocumentHash(std::string_view hash);

class TrustedDocuments {
 public:
  // The manifest `json` holds; InvalidArgument naming the first problem.
  static Result<TrustedDocuments> Parse(std::string_view json);
  // The manifest in the file at `path`; FailedPrecondition naming the variable, the file and the
  // problem.
  static Result<TrustedDocuments> Load(const std::string& path);

  // The text listed under `hash`, or null.
  const std::string* Find(std::string_view hash) const;
  std::size_t size() const { return documents_.size(); }

 private:
  std::map<std::string, std::string, std::less<>> documents_;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_TRUSTED_DOCUMENTS_H_
