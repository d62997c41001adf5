#include "core/api/trusted_documents.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>

#include "core/config/setting_file.h"
#include "core/crypto/digest.h"
#include "core/crypto/hex.h"

namespace netgraph::api {

std::string DocumentHash(std::string_view text) {
  return crypto::HexEncode(
      crypto::Sha256(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())));
}

bool IsDocumentHash(std::string_view hash) {
  if (hash.size() != 64) return false;
  for (char c : hash) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Result<TrustedDocuments> TrustedDocuments::Parse(std::string_view json) {
  nlohmann::json manifest = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (manifest.is_discarded()) return Status::InvalidArgument("not valid JSON");
  if (!manifest.is_object()) {
    return Status::InvalidArgument("not a JSON object mapping each document's SHA-256 to its text");
  }
  TrustedDocuments trusted;
  for (auto& [hash, text] : manifest.items()) {
    if (!text.is_string()) {
      return Status::InvalidArgument("the entry " + hash + " is not a string");
    }
    const std::string& document = text.get_ref<const std::string&>();
    if (!IsDocumentHash(hash)) {
      return Status::InvalidArgument("the key " + hash +
                                     " is not a SHA-256 in lower-case hex (write the manifest "
                                     "with hashAlgorithm 'sha256')");
    }
    if (DocumentHash(document) != hash) {
      return Status::InvalidArgument("the entry " + hash +
                                     " is not the SHA-256 of its text (write the manifest with "
                                     "hashAlgorithm 'sha256')");
    }
    trusted.documents_.emplace(hash, document);
  }
  return trusted;
}

Result<TrustedDocuments> TrustedDocuments::Load(const std::string& path) {
  return config::LoadSettingFile(kTrustedDocumentsVariable, path, Parse);
}

const std::string* TrustedDocuments::Find(std::string_view hash) const {
  auto found = documents_.find(hash);
  return found == documents_.end() ? nullptr : &found->second;
}

}  // namespace netgraph::api
