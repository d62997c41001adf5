-- Proof of wallet possession (core/domain/wallet_proof.h). Until now a wallet belonged to the
-- first user who claimed a voucher to it; now its owner can prove possession by signing a
-- service-issued challenge, and a proven owner takes over a wallet bound without proof.

-- When the owner proved possession; null for a wallet bound by a claim alone.
ALTER TABLE wallets ADD COLUMN proven_at TIMESTAMPTZ;

-- A takeover moves the wallet to its proven owner while the previous owner's redeemed vouchers
-- and redemptions stay, as history, under the user who made them, so only a live claim must
-- name the wallet's current owner: the key now covers CLAIMED vouchers alone (claim_wallet is null
-- otherwise, and a null column exempts the row from the key). A takeover releases the previous
-- owner's claims before it moves the wallet (core/domain/wallet_proof.cc).
ALTER TABLE vouchers DROP CONSTRAINT vouchers_wallet_address_user_id_fkey,
  ADD COLUMN claim_wallet TEXT
    GENERATED ALWAYS AS (CASE WHEN status = 'CLAIMED' THEN wallet_address END) STORED,
  ADD CONSTRAINT vouchers_wallet_address_fkey
    FOREIGN KEY (wallet_address) REFERENCES wallets (address),
  ADD CONSTRAINT vouchers_claim_wallet_owner_fkey
    FOREIGN KEY (claim_wallet, user_id) REFERENCES wallets (address, user_id);
ALTER TABLE redemptions DROP CONSTRAINT redemptions_wallet_address_user_id_fkey,
  ADD CONSTRAINT redemptions_wallet_address_fkey
    FOREIGN KEY (wallet_address) REFERENCES wallets (address);

-- Challenges issued by walletChallenge. Only a user's latest challenge for an address counts;
-- used_at makes it single use.
CREATE TABLE wallet_challenges (
  id              BIGSERIAL PRIMARY KEY,
  user_id         BIGINT NOT NULL REFERENCES users (id),
  wallet_address  TEXT NOT NULL CHECK (wallet_address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$'),
  message         TEXT NOT NULL CHECK (length(message) BETWEEN 1 AND 1212),
  expires_at      TIMESTAMPTZ NOT NULL,
  used_at         TIMESTAMPTZ,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX wallet_challenges_latest ON wallet_challenges (user_id, wallet_address, id);
CREATE INDEX wallet_challenges_due ON wallet_challenges (user_id, expires_at);
