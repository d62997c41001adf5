#include "core/domain/internal/wallet_address.h"

#include "core/crypto/solana_address.h"

namespace netgraph::domain {

bool IsValidWalletAddress(std::string_view address) {
  return crypto::SolanaAddress::Parse(address).ok();
}

}  // namespace netgraph::domain
