-- What a claim costs PostgreSQL, cut where nothing it does changes (issue 27; figures in
-- docs/benchmarks.md, "Issue 27 item 2: what a claim costs PostgreSQL"):
--  * epoch_us was declared IMMUTABLE over extract(epoch FROM timestamptz), which is only STABLE, so
--    the planner could not inline it: every instant a statement returned was a function call of its
--    own (three per claim). STABLE is what its body is; inlined, it is the same expression.
--  * claim_voucher looks a wallet up before it inserts one. The INSERT ... ON CONFLICT DO NOTHING it
--    ran first in every claim wrote nothing for a known wallet but still fired the wallets'
--    statement trigger (migration 0007). The rest of the function is migration 0010's.
--
-- Replaced in place with the same signatures: the release before calls both by name, and gets the
-- same answers (tests/database/claim_function_test.cc).
ALTER FUNCTION epoch_us(TIMESTAMPTZ) STABLE;

CREATE OR REPLACE FUNCTION claim_voucher(claimant BIGINT, claimant_public_id TEXT, voucher_code TEXT,
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
    -- A known wallet, as in nearly every claim, is only locked: an INSERT that meets it would
    -- still run the wallets' insert trigger (migration 0007) for no row.
    SELECT w.user_id, w.public_id, w.proven_at IS NOT NULL INTO owner, wallet_public_id, proven
      FROM wallets w WHERE w.address = wallet FOR KEY SHARE;
    IF NOT FOUND THEN
      INSERT INTO wallets (address, user_id) VALUES (wallet, claimant)
        ON CONFLICT (address) DO NOTHING;
      -- After ON CONFLICT DO NOTHING, which waited for a concurrent insert of the address to end,
      -- the row is visible: ours or the winner's.
      SELECT w.user_id, w.public_id, w.proven_at IS NOT NULL INTO owner, wallet_public_id, proven
        FROM wallets w WHERE w.address = wallet FOR KEY SHARE;
    END IF;
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
