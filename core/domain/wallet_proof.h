// Proof of wallet possession, as Solana wallets give it: the service issues a challenge text that
// names the user and the address, the wallet signs it as a Solana off-chain message
// (core/crypto/offchain_message.h) with its Ed25519 key, and the service checks the signature
// against the address (which is the public key). Without it, the first user to claim a voucher to
// an address would own that address here for ever (wallet squatting).
//
// The text names the service's public origin first (NETGRAPH_PUBLIC_ORIGIN), as Sign-In With
// Solana puts its domain first: a phishing page that relays a challenge for its victim's wallet
// gets it signed only by a victim who signs a text naming another site than the one in the
// address bar. A challenge issued under another origin (the setting changed, or another deployment
// shares the database) is not accepted.
//
// Ownership rules:
//  - a wallet bound by a claim alone is unproven; its owner or anyone holding its key can prove it;
//  - a proof by another user than the owner of an unproven wallet is a takeover: the wallet moves
//    to the prover, the previous owner's CLAIMED vouchers on it return to AVAILABLE (unbound, so
//    the code's holder can claim it again to a wallet of theirs), and the wallet's confidential
//    token account (the previous owner's ElGamal key and the balance encrypted under it) is
//    removed so the proven owner can register their own key. The previous owner's redeemed
//    vouchers and redemptions stay in their history;
//  - a proven wallet refuses claims, challenges and proofs by other users
//    (kWalletProvenByAnotherUser); only an operator moves it (ReassignWallet).
#ifndef NETGRAPH_CORE_DOMAIN_WALLET_PROOF_H_
#define NETGRAPH_CORE_DOMAIN_WALLET_PROOF_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/environment.h"
#include "core/crypto/bytes.h"
#include "core/domain/date_time.h"
#include "core/domain/failure.h"
#include "core/domain/user.h"
#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

inline constexpr char kPublicOriginVariable[] = "NETGRAPH_PUBLIC_ORIGIN";

struct WalletProofPolicy {
  // The origin users reach the service at ("https://netgraph.example": scheme, host, optional port;
  // lowercase), at most kMaxPublicOriginBytes. Empty (the setting is unset): challenges are not
  // issued.
  std::string public_origin;

  // Reads NETGRAPH_PUBLIC_ORIGIN; what is not an origin is recorded in `env`.
  static WalletProofPolicy FromEnvironment(config::Environment& env);
};
// Keeps the challenge within what hardware wallets display (below).
inline constexpr std::size_t kMaxPublicOriginBytes = 200;

// How long a challenge can be used.
inline constexpr std::chrono::seconds kWalletChallengeLifetime{300};
// Unused, unexpired challenges a user may hold at once (one per address).
inline constexpr std::int64_t kMaxOpenWalletChallenges = 20;

// The challenge text: lines of printable ASCII, short enough for the off-chain message format 1
// (limited UTF-8, at most 1212 bytes: what hardware wallets display; the newlines rule out format
// 0), for example
//   https://netgraph.example wants you to prove that you control this wallet.
//   Sign only if you are on https://netgraph.example. Signing costs nothing.
//   Wallet: <address>
//   User: <hex SHA-256 of the user's idpDid>
//   Nonce: <base58 of 16 random bytes>
//   Expires: 2026-11-21T09:35:00.000Z
// The user appears as a hash so the signed text does not carry the identity provider's DID.
std::string WalletChallengeText(std::string_view public_origin, std::string_view wallet_address,
                                std::string_view idp_did, std::string_view nonce,
                                Timestamp expires_at);
// Whether `text` is a challenge issued under `public_origin` (its first line names it).
bool IsWalletChallengeOf(std::string_view text, std::string_view public_origin);

// A signature as clients send it: base58 (Solana's form, as wallets print it) or standard base64,
// of exactly 64 bytes. Nullopt otherwise.
std::optional<crypto::Bytes64> ParseWalletSignature(std::string_view text);

struct WalletChallenge {
  std::string wallet_address;
  std::string message;                     // the challenge text
  std::vector<std::uint8_t> signed_bytes;  // its off-chain message envelope: what the wallet signs
  Timestamp expires_at;
};

// Issues a challenge for `user` and the address, replacing the user's earlier one for it.
// Refusals: kInvalidWalletAddress, kWalletProvenByAnotherUser, kTooManyWalletChallenges. Without a
// public origin it is an error (FailedPrecondition) naming the setting.
Outcome<WalletChallenge> IssueWalletChallenge(store::Connection& db,
                                              const WalletProofPolicy& policy, const User& user,
                                              std::string_view wallet_address);

struct ProvenWallet {
  std::string wallet_address;
  bool took_over = false;              // the wallet was another user's, bound without proof
  std::int64_t released_vouchers = 0;  // the previous owner's claims returned to AVAILABLE
  bool removed_token_account = false;  // the previous owner's key registration was removed
};

// Checks `signature` over the user's latest challenge for the address and binds the wallet to the
// user as proven (see the rules above), using the challenge up. Refusals, in order:
// kInvalidWalletAddress, kInvalidWalletSignature (malformed), kNoWalletChallenge (none, or the
// latest was issued under another origin than policy's), kWalletChallengeUsed,
// kWalletChallengeExpired, kInvalidWalletSignature (does not verify; the challenge stays usable),
// kWalletProvenByAnotherUser.
Outcome<ProvenWallet> VerifyWallet(store::Connection& db, const WalletProofPolicy& policy,
                                   const User& user, std::string_view wallet_address,
                                   std::string_view signature);

// Operators (`netgraphctl wallets reassign`): binds the wallet to the existing user with this
// idpDid, with the takeover's effects on the previous owner, proven or not. The wallet is left
// unproven, so whoever holds its key can still prove it. Fails for an invalid or unregistered
// address and for an unknown user.
Result<ProvenWallet> ReassignWallet(store::Connection& db, std::string_view wallet_address,
                                    std::string_view idp_did);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_WALLET_PROOF_H_
