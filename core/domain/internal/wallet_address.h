// Wallet addresses: Solana account keys in base58 that decode to exactly 32 bytes.
#ifndef NETGRAPH_CORE_DOMAIN_INTERNAL_WALLET_ADDRESS_H_
#define NETGRAPH_CORE_DOMAIN_INTERNAL_WALLET_ADDRESS_H_

#include <string_view>

namespace netgraph::domain {

// Whether `address` is a wallet address as Solana's Pubkey::from_str reads one. The accepted text
// is canonical (base58 has one text per byte string), so addresses compare as strings.
bool IsValidWalletAddress(std::string_view address);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_INTERNAL_WALLET_ADDRESS_H_
