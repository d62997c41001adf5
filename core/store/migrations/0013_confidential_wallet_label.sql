-- A wallet that holds a confidential balance stays labelled Confidential in the graph through the
-- claims to it (issue 27). claim_voucher compared the wallet's node with the labels of a wallet
-- without one, so every claim after a redemption took the path that writes the graph, and wrote
-- the label away (an announcement to every subscriber, the public reads' cache dropped); the
-- wallet's next redemption wrote it back. The check now expects the label while the wallet has a
-- token account, as core/domain/voucher.cc writes it; the rest of the function is migration 0011's.
--
-- Replaced in place with the same signature: the release before calls it by name. Its claims that
-- write the graph still write the wallet without the label, and the next claim of this release to
-- that wallet writes it back.
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
  wallet_labels TEXT[];
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
    -- The wallet's node is labelled Confidential while the wallet holds a confidential balance
    -- (core/domain/graph_ids.cc, WalletNode).
    wallet_labels := ARRAY['Wallet'] || CASE WHEN EXISTS (SELECT FROM token_accounts a
                                                         WHERE a.wallet_address = wallet)
                                             THEN ARRAY['Confidential'] ELSE '{}'::TEXT[] END;
    IF (SELECT count(*) FROM graph_nodes n
          WHERE (n.id, n.type, n.labels) IN ((claimant_public_id, 'Investor', ARRAY['Investor']),
                                             (wallet_public_id, 'Wallet', wallet_labels),
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
