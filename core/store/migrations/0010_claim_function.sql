-- A claim in one round trip (issue 27): the transaction of core/domain/voucher.cc's ClaimVoucher as
-- one function, called by one statement outside any explicit transaction (core/store/claim.h). Its
-- ten statements, each a round trip, cost a claim more than any one of them did
-- (docs/benchmarks.md, "Issue 27 item 2: the claim as one function").
--
-- What it does, in the order ClaimVoucher did it:
--  1. lock_claimant (migration 0009): the claimant's row locked, then their recent failed claims
--     counted, each statement with its own snapshot; at max_failures or more: 'too_many_attempts'.
--  2. The attempt, in a block with an exception handler, which is a subtransaction as the savepoint
--     of ClaimVoucher was: a refusal undoes what the attempt wrote (a wallet it registered) and is
--     recorded in claim_failures (pruned of the claimant's failures older than the window first):
--     'invalid_voucher_code' and 'invalid_wallet_address' (the
--     caller passes NULL for a code or an address it found invalid), 'wallet_proven_by_another_user',
--     'wallet_belongs_to_another_user', 'unclaimable' (with the voucher row when one has the code).
--     Otherwise the wallet registered (or found) and locked FOR KEY SHARE, the voucher claimed by
--     the conditional UPDATE (the vouchers' triggers, migrations 0003, 0007 and 0008, fire as they
--     did): 'claimed', with the voucher, its round and the token's decimals; or the same claim made
--     before: 'claimed_before'.
--  3. The graph. A claim names the investor, the wallet, the round and the links between them
--     (core/domain/internal/graph_ids.h gives their shapes; this checks the same shapes). When the
--     graph holds them as given, as for every claim to a known wallet, nothing is written. When it
--     does not, the graph's change and its outbox message (whose text core/domain/graph_change.cc
--     writes) belong to the caller: with graph_by_caller the function returns 'claimed' and the
--     caller, in the same transaction, writes the change; without it the attempt is undone, nothing
--     is counted, and it returns 'graph_to_write': the caller then runs it again in a transaction
--     of its own with graph_by_caller.
--
-- Added only: the release before keeps its own statements, which read and write the same rows.
CREATE FUNCTION claim_voucher(claimant BIGINT, claimant_public_id TEXT, voucher_code TEXT,
                              wallet TEXT, window_seconds BIGINT, max_failures BIGINT,
                              graph_by_caller BOOLEAN,
                              OUT outcome TEXT, OUT voucher vouchers, OUT round_name TEXT,
                              OUT round_price FLOAT8, OUT round_target FLOAT8,
                              OUT decimals INTEGER, OUT wallet_public_id TEXT)
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  owner BIGINT;
  proven BOOLEAN;
  round_node TEXT;
BEGIN
  IF lock_claimant(claimant, window_seconds) >= max_failures THEN
    outcome := 'too_many_attempts';
    RETURN;
  END IF;
  BEGIN
    IF voucher_code IS NULL THEN
      outcome := 'invalid_voucher_code';
      RAISE SQLSTATE 'NGC01';
    END IF;
    IF wallet IS NULL THEN
      outcome := 'invalid_wallet_address';
      RAISE SQLSTATE 'NGC01';
    END IF;
    INSERT INTO wallets (address, user_id) VALUES (wallet, claimant)
      ON CONFLICT (address) DO NOTHING;
    -- After ON CONFLICT DO NOTHING, which waited for a concurrent insert of the address to end,
    -- the row is visible: ours or the winner's.
    SELECT w.user_id, w.public_id, w.proven_at IS NOT NULL INTO owner, wallet_public_id, proven
      FROM wallets w WHERE w.address = wallet FOR KEY SHARE;
    IF owner IS DISTINCT FROM claimant THEN
      outcome := CASE WHEN proven THEN 'wallet_proven_by_another_user'
                      ELSE 'wallet_belongs_to_another_user' END;
      RAISE SQLSTATE 'NGC01';
    END IF;
    UPDATE vouchers v SET status = 'CLAIMED', user_id = claimant, wallet_address = wallet,
                          claimed_at = now()
      WHERE v.code = voucher_code AND v.status = 'AVAILABLE'
        AND (v.expires_at IS NULL OR v.expires_at > now())
      RETURNING v.* INTO voucher;
    IF NOT FOUND THEN
      SELECT v.* INTO voucher FROM vouchers v WHERE v.code = voucher_code;
      IF FOUND AND voucher.user_id = claimant AND voucher.wallet_address = wallet
         AND voucher_state(voucher.status, voucher.expires_at) IN ('CLAIMED', 'REDEEMED') THEN
        SELECT t.decimals INTO decimals FROM token t;
        outcome := 'claimed_before';
        RETURN;
      END IF;
      outcome := 'unclaimable';
      RAISE SQLSTATE 'NGC01';
    END IF;
    SELECT r.name, r.price::FLOAT8, r.target::FLOAT8 INTO round_name, round_price, round_target
      FROM rounds r WHERE r.id = voucher.round_id;
    SELECT t.decimals INTO decimals FROM token t;
    outcome := 'claimed';
    IF graph_by_caller THEN
      RETURN;
    END IF;
    round_node := 'round-' || voucher.round_id;
    IF (SELECT count(*) FROM graph_nodes n
          WHERE (n.id, n.type, n.labels) IN ((claimant_public_id, 'Investor', ARRAY['Investor']),
                                             (wallet_public_id, 'Wallet', ARRAY['Wallet']),
                                             (round_node, 'Round', ARRAY['Round', round_name]))) = 3
       AND (SELECT count(*) FROM graph_links l
              WHERE (l.source, l.target, l.type) IN ((claimant_public_id, wallet_public_id, 'OWNS'),
                                                     (wallet_public_id, round_node, 'INVESTED_IN'))) = 2
    THEN
      RETURN;
    END IF;
    outcome := 'graph_to_write';
    RAISE SQLSTATE 'NGC01';
  EXCEPTION WHEN SQLSTATE 'NGC01' THEN
    IF outcome = 'graph_to_write' THEN
      RETURN;
    END IF;
    DELETE FROM claim_failures
      WHERE user_id = claimant AND failed_at <= now() - make_interval(secs => window_seconds);
    INSERT INTO claim_failures (user_id) VALUES (claimant);
  END;
END $$;
