#include "core/crypto/elgamal.h"

#include <sodium.h>

#include <algorithm>
#include <span>
#include <vector>

#include "core/crypto/base64.h"

namespace netgraph::crypto {
namespace {

std::string_view Describe(PublicKeyError error) {
  switch (error) {
    case PublicKeyError::kBadBase64:
      return "ElGamal public key is not standard padded base64";
    case PublicKeyError::kWrongLength:
      return "ElGamal public key must be 32 bytes";
    case PublicKeyError::kIdentity:
      return "ElGamal public key is the identity point";
    case PublicKeyError::kNotAPoint:
      return "ElGamal public key is not a valid ristretto255 point";
  }
  return "ElGamal public key is invalid";
}

Status Fail(PublicKeyError reason, PublicKeyError* error) {
  if (error != nullptr) *error = reason;
  return Status::InvalidArgument(std::string(Describe(reason)));
}

enum class Decoded { kOk, kBadBase64, kWrongLength };

// Decodes base64 text of exactly out.size() bytes into `out`, wiping the intermediate copy (the
// text may hold a secret key).
Decoded DecodeFixedSize(std::string_view base64, std::span<std::uint8_t> out) {
  Result<std::vector<std::uint8_t>> decoded = Base64Decode(base64);
  if (!decoded.ok()) return Decoded::kBadBase64;
  bool fits = decoded->size() == out.size();
  if (fits) std::copy(decoded->begin(), decoded->end(), out.begin());
  sodium_memzero(decoded->data(), decoded->size());
  return fits ? Decoded::kOk : Decoded::kWrongLength;
}

}  // namespace

ElGamalSecretKey ElGamalSecretKey::Generate() {
  Scalar scalar;
  while (scalar.IsZero()) scalar = Scalar::Random();
  return ElGamalSecretKey(scalar);
}

Result<ElGamalSecretKey> ElGamalSecretKey::FromBytes(const Bytes32& bytes) {
  std::optional<Scalar> scalar = Scalar::FromCanonicalBytes(bytes);
  if (!scalar) return Status::InvalidArgument("ElGamal secret key is not a canonical scalar");
  if (scalar->IsZero()) return Status::InvalidArgument("ElGamal secret key is zero");
  return ElGamalSecretKey(*scalar);
}

Result<ElGamalSecretKey> ElGamalSecretKey::Parse(std::string_view base64) {
  Bytes32 bytes;
  switch (DecodeFixedSize(base64, bytes)) {
    case Decoded::kBadBase64:
      return Status::InvalidArgument("ElGamal secret key is not standard padded base64");
    case Decoded::kWrongLength:
      return Status::InvalidArgument("ElGamal secret key must be 32 bytes");
    case Decoded::kOk:
      break;
  }
  Result<ElGamalSecretKey> key = FromBytes(bytes);
  sodium_memzero(bytes.data(), bytes.size());
  return key;
}

ElGamalSecretKey::~ElGamalSecretKey() { scalar_.Wipe(); }

std::string ElGamalSecretKey::ToBase64() const { return Base64Encode(scalar_.bytes()); }

ElGamalPublicKey ElGamalPublicKey::FromSecretKey(const ElGamalSecretKey& secret) {
  // A secret key is never zero, so it has an inverse.
  return ElGamalPublicKey(*secret.scalar().Inverse() * PedersenH());
}

Result<ElGamalPublicKey> ElGamalPublicKey::FromBytes(const Bytes32& bytes, PublicKeyError* error) {
  if (bytes == Bytes32{}) return Fail(PublicKeyError::kIdentity, error);
  std::optional<RistrettoPoint> point = RistrettoPoint::FromBytes(bytes);
  if (!point) return Fail(PublicKeyError::kNotAPoint, error);
  return ElGamalPublicKey(*point);
}

Result<ElGamalPublicKey> ElGamalPublicKey::Parse(std::string_view base64, PublicKeyError* error) {
  Bytes32 bytes;
  switch (DecodeFixedSize(base64, bytes)) {
    case Decoded::kBadBase64:
      return Fail(PublicKeyError::kBadBase64, error);
    case Decoded::kWrongLength:
      return Fail(PublicKeyError::kWrongLength, error);
    case Decoded::kOk:
      break;
  }
  return FromBytes(bytes, error);
}

std::string ElGamalPublicKey::ToBase64() const { return Base64Encode(bytes()); }

Result<ElGamalCiphertext> ElGamalCiphertext::FromBytes(const Bytes64& bytes) {
  Bytes32 commitment, handle;
  std::copy_n(bytes.begin(), 32, commitment.begin());
  std::copy_n(bytes.begin() + 32, 32, handle.begin());
  std::optional<RistrettoPoint> commitment_point = RistrettoPoint::FromBytes(commitment);
  std::optional<RistrettoPoint> handle_point = RistrettoPoint::FromBytes(handle);
  if (!commitment_point || !handle_point) {
    return Status::InvalidArgument("ElGamal ciphertext is not two valid ristretto255 points");
  }
  return ElGamalCiphertext(*commitment_point, *handle_point);
}

Result<ElGamalCiphertext> ElGamalCiphertext::Parse(std::string_view base64) {
  Bytes64 bytes;
  switch (DecodeFixedSize(base64, bytes)) {
    case Decoded::kBadBase64:
      return Status::InvalidArgument("ElGamal ciphertext is not standard padded base64");
    case Decoded::kWrongLength:
      return Status::InvalidArgument("ElGamal ciphertext must be 64 bytes");
    case Decoded::kOk:
      break;
  }
  return FromBytes(bytes);
}

Bytes64 ElGamalCiphertext::bytes() const {
  Bytes64 bytes;
  std::copy(commitment_.bytes().begin(), commitment_.bytes().end(), bytes.begin());
  std::copy(handle_.bytes().begin(), handle_.bytes().end(), bytes.begin() + 32);
  return bytes;
}

std::string ElGamalCiphertext::ToBase64() const { return Base64Encode(bytes()); }

ElGamalCiphertext ElGamalCiphertext::operator+(const ElGamalCiphertext& other) const {
  return ElGamalCiphertext(commitment_ + other.commitment_, handle_ + other.handle_);
}

ElGamalCiphertext Encrypt(const ElGamalPublicKey& key, std::uint64_t amount) {
  Scalar opening = Scalar::Random();
  ElGamalCiphertext ciphertext = EncryptWithOpening(key, amount, opening);
  opening.Wipe();
  return ciphertext;
}

ElGamalCiphertext EncryptWithOpening(const ElGamalPublicKey& key, std::uint64_t amount,
                                     const Scalar& opening) {
  RistrettoPoint commitment =
      RistrettoPoint::MultiplyBase(Scalar::FromU64(amount)) + opening * PedersenH();
  return ElGamalCiphertext(commitment, opening * key.point());
}

}  // namespace netgraph::crypto
