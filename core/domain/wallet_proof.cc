#include "core/domain/wallet_proof.h"

#include <openssl/rand.h>

#include <array>
#include <optional>
#include <span>
#include <utility>

#include "core/config/web_origin.h"
#include "core/crypto/base58.h"
#include "core/crypto/base64.h"
#include "core/crypto/digest.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/hex.h"
#include "core/crypto/offchain_message.h"
#include "core/crypto/solana_address.h"
#include "core/domain/graph_change.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/wallet_address.h"
#include "core/store/ledger.h"
#include "core/store/users.h"
#include "core/store/vouchers.h"
#include "core/store/wallet_challenges.h"
#include "core/store/wallets.h"

namespace netgraph::domain {
namespace {

std::span<const std::uint8_t> BytesOf(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

Result<std::string> RandomNonce() {
  std::array<std::uint8_t, 16> random{};
  if (RAND_bytes(random.data(), static_cast<int>(random.size())) != 1) {
    return Status::Internal("wallet challenge: the random generator failed");
  }
  return crypto::Base58Encode(random);
}

// The first line of a challenge issued under `public_origin`, newline included.
std::string OriginLine(std::string_view public_origin) {
  return std::string(public_origin) + " wants you to prove that you control this wallet.\n";
}

// Moves `wallet` from its current owner to `user_id`, undoing what the previous owner bound to
// it: their open claims and the token account registered under their key. The caller holds the
// wallet's kForOwnerChange lock.
Result<ProvenWallet> TakeOver(store::Connection& db, const store::WalletRow& wallet,
                              std::int64_t user_id, std::string_view user_public_id, bool proven) {
  ProvenWallet result;
  result.wallet_address = wallet.address;
  result.took_over = true;
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::VoucherRow> released,
                            store::ReleaseClaimedVouchers(db, wallet.user_id, wallet.address));
  result.released_vouchers = static_cast<std::int64_t>(released.size());
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::TokenAccountRow> removed,
                            store::DeleteTokenAccount(db, wallet.address));
  result.removed_token_account = removed.has_value();
  NETGRAPH_ASSIGN_OR_RETURN(
      bool moved, store::TransferWallet(db, wallet.address, wallet.user_id, user_id, proven));
  if (!moved) return Status::Internal("wallet takeover: the locked wallet changed owner");

  GraphChange change;
  change.AddNode(InvestorNode(user_public_id));
  change.AddNode(WalletNode(wallet.public_id, /*confidential=*/false));
  change.AddLink(GraphLink{std::string(user_public_id), wallet.public_id, kOwnsLink});
  NETGRAPH_RETURN_IF_ERROR(change.Write(db));
  return result;
}

// The proof itself, inside the caller's transaction.
Outcome<ProvenWallet> AttemptProof(store::Connection& db, const WalletProofPolicy& policy,
                                   const User& user, std::string_view wallet_address,
                                   const crypto::Bytes64& signature) {
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::WalletChallengeRow> challenge,
                            store::LatestWalletChallenge(db, user.id, wallet_address));
  // One issued under another origin was not shown to the user as this site's.
  if (!challenge.has_value() || !IsWalletChallengeOf(challenge->message, policy.public_origin)) {
    return Failure::kNoWalletChallenge;
  }
  if (challenge->used) return Failure::kWalletChallengeUsed;
  if (challenge->expired) return Failure::kWalletChallengeExpired;

  Result<crypto::SolanaAddress> key = crypto::SolanaAddress::Parse(wallet_address);
  if (!key.ok()) return Failure::kInvalidWalletAddress;
  if (!crypto::VerifyOffchainMessage(key->bytes(), challenge->message, signature)) {
    return Failure::kInvalidWalletSignature;
  }
  NETGRAPH_ASSIGN_OR_RETURN(bool used, store::MarkWalletChallengeUsed(db, challenge->id));
  if (!used) return Failure::kWalletChallengeUsed;

  // Registering first makes the row exist, so one exclusive lock covers every case below.
  NETGRAPH_RETURN_IF_ERROR(store::RegisterWallet(db, wallet_address, user.id));
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::WalletRow> wallet,
                            store::FindWallet(db, wallet_address, store::RowLock::kForOwnerChange));
  if (!wallet.has_value())
    return Status::Internal("wallet proof: the registered wallet is missing");
  const store::WalletRow& current = *wallet;
  if (current.user_id == user.id) {
    NETGRAPH_ASSIGN_OR_RETURN(bool marked, store::MarkWalletProven(db, wallet_address, user.id));
    if (!marked) return Status::Internal("wallet proof: the locked wallet changed owner");
    return ProvenWallet{std::string(wallet_address)};
  }
  if (current.proven) return Failure::kWalletProvenByAnotherUser;
  NETGRAPH_ASSIGN_OR_RETURN(ProvenWallet taken,
                            TakeOver(db, current, user.id, user.public_id, /*proven=*/true));
  return taken;
}

}  // namespace

WalletProofPolicy WalletProofPolicy::FromEnvironment(config::Environment& env) {
  WalletProofPolicy policy;
  std::string setting = env.String(kPublicOriginVariable);
  // As copied from a browser's address bar (config::Environment::List drops it too).
  if (setting.ends_with('/')) setting.pop_back();
  if (setting.empty()) return policy;
  std::optional<std::string> origin = config::ParseWebOrigin(setting);
  if (!origin || origin->size() > kMaxPublicOriginBytes) {
    env.AddProblem(std::string(kPublicOriginVariable) +
                   " must be the origin users reach the service at, like https://netgraph.example "
                   "or http://127.0.0.1:8080 (scheme, host, optional port, nothing after it; at "
                   "most " +
                   std::to_string(kMaxPublicOriginBytes) + " characters), not '" + setting + "'");
    return policy;
  }
  policy.public_origin = std::move(*origin);
  return policy;
}

std::string WalletChallengeText(std::string_view public_origin, std::string_view wallet_address,
                                std::string_view idp_did, std::string_view nonce,
                                Timestamp expires_at) {
  std::string text = OriginLine(public_origin);
  text += "Sign only if you are on ";
  text += public_origin;
  text += ". Signing costs nothing.\n";
  text += "Wallet: ";
  text += wallet_address;
  text += "\nUser: ";
  text += crypto::HexEncode(crypto::Sha256(BytesOf(idp_did)));
  text += "\nNonce: ";
  text += nonce;
  text += "\nExpires: ";
  text += FormatDateTime(expires_at);
  return text;
}

bool IsWalletChallengeOf(std::string_view text, std::string_view public_origin) {
  return !public_origin.empty() && text.starts_with(OriginLine(public_origin));
}

std::optional<crypto::Bytes64> ParseWalletSignature(std::string_view text) {
  crypto::Bytes64 signature{};
  if (Result<crypto::Bytes64> base58 = crypto::ParseBase58Signature(text); base58.ok()) {
    return *base58;
  }
  // Base64 of 64 bytes is 88 characters; nothing longer is worth decoding.
  if (text.size() > 88) return std::nullopt;
  Result<std::vector<std::uint8_t>> base64 = crypto::Base64Decode(text);
  if (!base64.ok() || base64->size() != signature.size()) return std::nullopt;
  std::copy(base64->begin(), base64->end(), signature.begin());
  return signature;
}

Outcome<WalletChallenge> IssueWalletChallenge(store::Connection& db,
                                              const WalletProofPolicy& policy, const User& user,
                                              std::string_view wallet_address) {
  if (!IsValidWalletAddress(wallet_address)) return Failure::kInvalidWalletAddress;
  if (policy.public_origin.empty()) {
    return Status::FailedPrecondition(std::string(kPublicOriginVariable) +
                                      " is not set: wallet challenges name the origin users reach "
                                      "the service at, so none is issued without it");
  }
  std::optional<Outcome<WalletChallenge>> outcome;
  Status committed = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    outcome.reset();
    // One issue per user at a time, so the count of open challenges is exact.
    NETGRAPH_RETURN_IF_ERROR(store::LockUser(db, user.id));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::WalletRow> wallet,
                              store::FindWallet(db, wallet_address));
    if (wallet.has_value() && wallet->proven && wallet->user_id != user.id) {
      outcome = Failure::kWalletProvenByAnotherUser;
      return Status::Ok();
    }
    NETGRAPH_RETURN_IF_ERROR(store::PruneWalletChallenges(db, user.id, wallet_address));
    NETGRAPH_ASSIGN_OR_RETURN(std::int64_t open, store::CountOpenWalletChallenges(db, user.id));
    if (open >= kMaxOpenWalletChallenges) {
      outcome = Failure::kTooManyWalletChallenges;
      return Status::Ok();
    }
    NETGRAPH_ASSIGN_OR_RETURN(std::int64_t now, store::TransactionTime(db));
    // Whole milliseconds, as the text shows the instant, so the stored expiry is the one signed.
    const std::int64_t expires_micros =
        (now / 1000) * 1000 +
        std::chrono::duration_cast<std::chrono::microseconds>(kWalletChallengeLifetime).count();
    NETGRAPH_ASSIGN_OR_RETURN(std::string nonce, RandomNonce());
    WalletChallenge challenge;
    challenge.wallet_address = std::string(wallet_address);
    challenge.expires_at = FromEpochMicros(expires_micros);
    challenge.message = WalletChallengeText(policy.public_origin, wallet_address, user.idp_did,
                                            nonce, challenge.expires_at);
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<std::uint8_t> envelope,
                              crypto::SerializeOffchainMessage(challenge.message));
    challenge.signed_bytes = std::move(envelope);
    if (Status s = store::InsertWalletChallenge(db, user.id, wallet_address, challenge.message,
                                                expires_micros);
        !s.ok()) {
      return s;
    }
    outcome = std::move(challenge);
    return Status::Ok();
  });
  if (!committed.ok()) return committed;
  return std::move(*outcome);
}

Outcome<ProvenWallet> VerifyWallet(store::Connection& db, const WalletProofPolicy& policy,
                                   const User& user, std::string_view wallet_address,
                                   std::string_view signature) {
  if (!IsValidWalletAddress(wallet_address)) return Failure::kInvalidWalletAddress;
  const std::optional<crypto::Bytes64> parsed = ParseWalletSignature(signature);
  if (!parsed) return Failure::kInvalidWalletSignature;
  // A refusal keeps nothing: in particular the challenge stays usable after a bad signature.
  return InAttemptTransaction<ProvenWallet>(db, store::Isolation::kReadCommitted, [&] {
    return AttemptProof(db, policy, user, wallet_address, *parsed);
  });
}

Result<ProvenWallet> ReassignWallet(store::Connection& db, std::string_view wallet_address,
                                    std::string_view idp_did) {
  if (!IsValidWalletAddress(wallet_address)) {
    return Status::InvalidArgument("not a wallet address: base58 of 32 bytes expected");
  }
  std::optional<ProvenWallet> result;
  Status committed = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    result.reset();
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::UserRow> user,
                              store::FindUserByDid(db, idp_did));
    if (!user.has_value())
      return Status::NotFound("no user has the idpDid " + std::string(idp_did));
    NETGRAPH_ASSIGN_OR_RETURN(
        std::optional<store::WalletRow> wallet,
        store::FindWallet(db, wallet_address, store::RowLock::kForOwnerChange));
    if (!wallet.has_value()) {
      return Status::NotFound("no wallet " + std::string(wallet_address) + " is registered");
    }
    if (wallet->user_id == user->id) {
      result = ProvenWallet{std::string(wallet_address)};
      return Status::Ok();
    }
    NETGRAPH_ASSIGN_OR_RETURN(ProvenWallet taken,
                              TakeOver(db, *wallet, user->id, user->public_id, /*proven=*/false));
    result = std::move(taken);
    return Status::Ok();
  });
  if (!committed.ok()) return committed;
  return std::move(*result);
}

}  // namespace netgraph::domain
