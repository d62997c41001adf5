-- The data model: identities, the token and its rounds, wallets, vouchers, confidential token
-- accounts and redemptions, the public network graph, and the outbox that relays graph changes to
-- Redis. The constraints back the rules core/domain enforces, so a bug there cannot store a state
-- the rules forbid.

-- Instants leave the database as microseconds since the Unix epoch.
CREATE FUNCTION epoch_us(t TIMESTAMPTZ) RETURNS BIGINT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN (extract(epoch FROM t) * 1000000)::BIGINT;

-- Users appear on first sight of a verified token's `sub` (their idpDid).
CREATE TABLE users (
  id          BIGSERIAL PRIMARY KEY,
  idp_did     TEXT NOT NULL UNIQUE CHECK (length(idp_did) BETWEEN 1 AND 512),
  email       TEXT CHECK (email IS NULL OR length(email) BETWEEN 1 AND 320),
  is_admin    BOOLEAN NOT NULL DEFAULT false,
  -- The user's node id in the public graph: random, never derived from the DID or the email.
  public_id   TEXT NOT NULL UNIQUE
              DEFAULT 'investor-' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Failed claim attempts, for the per-user rate limit. Rows older than the window are pruned.
CREATE TABLE claim_failures (
  user_id    BIGINT NOT NULL REFERENCES users (id),
  failed_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX claim_failures_recent ON claim_failures (user_id, failed_at);

-- The one token this service issues. Amounts are stored in base units: 10^decimals per token.
CREATE TABLE token (
  id        BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),  -- exactly one row
  name      TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  symbol    TEXT NOT NULL CHECK (symbol ~ '^[A-Z0-9]{1,10}$'),
  decimals  SMALLINT NOT NULL DEFAULT 2 CHECK (decimals BETWEEN 0 AND 9)
);
INSERT INTO token (name, symbol) VALUES ('Netgraph Token', 'NGT');

-- Investment rounds. A round is open from opens_at until closes_at (forever when null); the
-- current round is the open one that opened last.
CREATE TABLE rounds (
  id         BIGSERIAL PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
  price      NUMERIC(20, 8) NOT NULL CHECK (price >= 0),   -- quote currency per token unit
  target     NUMERIC(20, 2) NOT NULL CHECK (target >= 0),  -- quote currency
  opens_at   TIMESTAMPTZ NOT NULL,
  closes_at  TIMESTAMPTZ,
  CHECK (closes_at IS NULL OR closes_at > opens_at)
);

-- A wallet has exactly one owner: the first user who claimed a voucher to it.
CREATE TABLE wallets (
  address     TEXT PRIMARY KEY CHECK (address ~ '^[1-9A-HJ-NP-Za-km-z]{32,44}$'),  -- base58
  user_id     BIGINT NOT NULL REFERENCES users (id),
  public_id   TEXT NOT NULL UNIQUE
              DEFAULT 'wallet-' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 20),
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (address, user_id)  -- the target of "a voucher's wallet is its owner's"
);
CREATE INDEX wallets_user ON wallets (user_id);

CREATE TABLE redemptions (
  id                       BIGSERIAL PRIMARY KEY,
  user_id                  BIGINT NOT NULL,
  wallet_address           TEXT NOT NULL,
  amount                   BIGINT NOT NULL CHECK (amount > 0 AND amount < 4294967296),
  token_account            TEXT NOT NULL,
  confidential_public_key  TEXT NOT NULL,
  encrypted_amount         TEXT NOT NULL,
  encrypted_balance        TEXT NOT NULL,
  receipt                  TEXT NOT NULL,          -- the canonical receipt text that was signed
  receipt_hash             TEXT NOT NULL UNIQUE,   -- hex SHA-256 of the signed envelope
  signature                TEXT NOT NULL UNIQUE,   -- base58 Ed25519 signature: the txSignature
  created_at               TIMESTAMPTZ NOT NULL DEFAULT now(),
  FOREIGN KEY (wallet_address, user_id) REFERENCES wallets (address, user_id)
);
CREATE INDEX redemptions_wallet ON redemptions (wallet_address, id);

-- Voucher states: AVAILABLE -> CLAIMED -> REDEEMED; AVAILABLE|CLAIMED -> EXPIRED (expires_at
-- passed) or REVOKED (an operator). Readers treat an AVAILABLE or CLAIMED voucher whose expires_at
-- has passed as EXPIRED even before the relay's sweep stores that.
CREATE TABLE vouchers (
  id              BIGSERIAL PRIMARY KEY,
  -- Normalised form: 20 characters of Crockford's base32 (100 random bits).
  code            TEXT NOT NULL UNIQUE CHECK (code ~ '^[0-9A-HJKMNP-TV-Z]{20}$'),
  amount          BIGINT NOT NULL CHECK (amount > 0 AND amount < 4294967296),  -- base units
  round_id        BIGINT NOT NULL REFERENCES rounds (id),
  batch           TEXT CHECK (batch IS NULL OR length(batch) BETWEEN 1 AND 100),  -- e.g. 'demo'
  status          TEXT NOT NULL DEFAULT 'AVAILABLE'
                  CHECK (status IN ('AVAILABLE', 'CLAIMED', 'REDEEMED', 'EXPIRED', 'REVOKED')),
  user_id         BIGINT REFERENCES users (id),
  wallet_address  TEXT,
  expires_at      TIMESTAMPTZ,
  claimed_at      TIMESTAMPTZ,
  redeemed_at     TIMESTAMPTZ,
  revoked_at      TIMESTAMPTZ,
  redemption_id   BIGINT REFERENCES redemptions (id) DEFERRABLE INITIALLY DEFERRED,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- A claimed voucher names its owner, the owner's wallet and when: all three or none.
  FOREIGN KEY (wallet_address, user_id) REFERENCES wallets (address, user_id),
  CHECK ((user_id IS NULL) = (wallet_address IS NULL) AND (user_id IS NULL) = (claimed_at IS NULL)),
  CHECK ((redeemed_at IS NULL) = (redemption_id IS NULL)),
  CHECK ((revoked_at IS NULL) = (status <> 'REVOKED')),
  CHECK (CASE status
           WHEN 'AVAILABLE' THEN user_id IS NULL AND redeemed_at IS NULL
           WHEN 'CLAIMED'   THEN user_id IS NOT NULL AND redeemed_at IS NULL
           WHEN 'REDEEMED'  THEN user_id IS NOT NULL AND redeemed_at IS NOT NULL
           WHEN 'EXPIRED'   THEN expires_at IS NOT NULL AND redeemed_at IS NULL
           WHEN 'REVOKED'   THEN redeemed_at IS NULL
         END)
);
-- A voucher's status as readers see it: expiry applies the moment expires_at passes.
CREATE FUNCTION voucher_state(status TEXT, expires_at TIMESTAMPTZ) RETURNS TEXT
  LANGUAGE sql STABLE PARALLEL SAFE
  RETURN CASE WHEN status IN ('AVAILABLE', 'CLAIMED') AND expires_at <= now() THEN 'EXPIRED'
              ELSE status END;

CREATE INDEX vouchers_owner ON vouchers (user_id, wallet_address) WHERE user_id IS NOT NULL;
CREATE INDEX vouchers_round_status ON vouchers (round_id, status);
CREATE INDEX vouchers_status_id ON vouchers (status, id);
CREATE INDEX vouchers_due ON vouchers (expires_at) WHERE status IN ('AVAILABLE', 'CLAIMED');

-- A wallet's confidential Token-2022 account. The first redemption registers the ElGamal key;
-- `balance` is the plaintext ledger beside the ciphertext the owner decrypts.
CREATE TABLE token_accounts (
  wallet_address           TEXT PRIMARY KEY REFERENCES wallets (address),
  account_address          TEXT NOT NULL UNIQUE,  -- the associated Token-2022 account
  confidential_public_key  TEXT NOT NULL,
  encrypted_balance        TEXT NOT NULL,
  -- Standard decryptors solve the discrete log only below 2^32 base units.
  balance                  BIGINT NOT NULL CHECK (balance > 0 AND balance < 4294967296),
  last_receipt_hash        TEXT NOT NULL,  -- receipts chain per account
  updated_at               TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The public network graph. Ids are opaque: never an email or an identity-provider DID.
CREATE TABLE graph_nodes (
  id          TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  type        TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
  labels      TEXT[] NOT NULL DEFAULT '{}' CHECK (cardinality(labels) <= 32),
  changed_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX graph_nodes_recent ON graph_nodes (changed_at DESC, id);

CREATE TABLE graph_links (
  source      TEXT NOT NULL REFERENCES graph_nodes (id) ON DELETE CASCADE,
  target      TEXT NOT NULL REFERENCES graph_nodes (id) ON DELETE CASCADE,
  type        TEXT NOT NULL CHECK (length(type) BETWEEN 1 AND 64),
  changed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (source, target, type)
);
CREATE INDEX graph_links_target ON graph_links (target);
CREATE INDEX graph_links_recent ON graph_links (changed_at);

-- Graph changes waiting to be published on Redis. Ids come from outbox_sequence, whose row lock
-- is held from the moment a transaction takes an id until it commits: ids are therefore gap-free
-- and in commit order, and subscribers can detect a missed update from the `sequence` field.
CREATE TABLE outbox_sequence (
  id       BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),  -- exactly one row
  last_id  BIGINT NOT NULL
);
INSERT INTO outbox_sequence (last_id) VALUES (0);

CREATE TABLE outbox (
  id            BIGINT PRIMARY KEY CHECK (id > 0),
  channel       TEXT NOT NULL,
  payload       TEXT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  published_at  TIMESTAMPTZ
);
CREATE INDEX outbox_pending ON outbox (id) WHERE published_at IS NULL;
