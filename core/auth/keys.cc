#include "core/auth/internal/keys.h"

#include <openssl/core_names.h>
#include <openssl/pem.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "core/auth/internal/openssl_handles.h"

namespace netgraph::auth {

namespace {

constexpr std::size_t kMaxKeyFileBytes = 1 << 20;
constexpr int kMinRsaBits = 2048;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// "EC prime256v1", "RSA 1024 bits": how a mismatched key is described in an error.
std::string DescribeKey(const EVP_PKEY* key) {
  const char* type = EVP_PKEY_get0_type_name(key);
  std::string description = type != nullptr ? type : "unknown";
  char group[64];
  if (EVP_PKEY_get_group_name(key, group, sizeof group, nullptr) == 1) {
    description += std::string(" ") + group;
  } else {
    description += " " + std::to_string(EVP_PKEY_get_bits(key)) + " bits";
  }
  return description;
}

}  // namespace

Result<std::string> ReadKeyFile(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) return Status::FailedPrecondition("cannot open " + path + ": " + std::strerror(errno));
  std::string content;
  char chunk[4096];
  std::size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
    content.append(chunk, n);
    if (content.size() > kMaxKeyFileBytes) {
      return Status::InvalidArgument(path + " is larger than " + std::to_string(kMaxKeyFileBytes) +
                                     " bytes");
    }
  }
  if (std::ferror(file.get())) {
    return Status::FailedPrecondition("cannot read " + path + ": " + std::strerror(errno));
  }
  return content;
}

Status CheckKeyFitsAlgorithm(const EVP_PKEY* key, JwtAlgorithm algorithm) {
  bool fits = false;
  switch (algorithm) {
    case JwtAlgorithm::kES256: {
      char group[64];
      fits = EVP_PKEY_is_a(key, "EC") &&
             EVP_PKEY_get_group_name(key, group, sizeof group, nullptr) == 1 &&
             std::strcmp(group, "prime256v1") == 0;
      break;
    }
    case JwtAlgorithm::kRS256:
      fits = EVP_PKEY_is_a(key, "RSA") && EVP_PKEY_get_bits(key) >= kMinRsaBits;
      break;
  }
  if (fits) return Status::Ok();
  return Status::InvalidArgument(
      std::string(AlgorithmName(algorithm)) + " needs " +
      (algorithm == JwtAlgorithm::kES256 ? "an EC P-256 key" : "an RSA key of at least 2048 bits") +
      ", not " + DescribeKey(key));
}

Result<std::string> PublicKeyPem(const EVP_PKEY* key) {
  BioHandle bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), key) != 1) {
    return Status::Internal("cannot encode a public key: " + TakeOpenSslError());
  }
  char* data = nullptr;
  long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

Result<VerificationKey> VerificationKeyFromPem(std::string_view pem, JwtAlgorithm algorithm) {
  BioHandle bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  PkeyHandle key(bio ? PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!key) {
    return Status::InvalidArgument("not a PEM public key (-----BEGIN PUBLIC KEY-----): " +
                                   TakeOpenSslError());
  }
  NETGRAPH_RETURN_IF_ERROR(CheckKeyFitsAlgorithm(key.get(), algorithm));
  NETGRAPH_ASSIGN_OR_RETURN(std::string canonical, PublicKeyPem(key.get()));
  return VerificationKey{std::nullopt, std::move(canonical)};
}

}  // namespace netgraph::auth
