-- What a redemption reads and takes before its credit is computed, in one statement (issue 27):
-- its wallet, locked FOR NO KEY UPDATE so that the account and its receipt chain stay current until
-- commit; the token; the transaction's time; the wallet's account; and, when the wallet is the
-- redeemer's and its account is absent or registered under the key given, the redemption's id and
-- the wallet's CLAIMED, unexpired vouchers, made REDEEMED as part of it. These were six round trips
-- of core/domain/redemption.cc. The caller refuses what the answer says to refuse and rolls back;
-- the redemption's row is inserted before commit by the same transaction (vouchers.redemption_id is
-- checked at commit). A new function: the release before does not call it.
CREATE FUNCTION start_redemption(redeemer BIGINT, wallet TEXT, confidential_key TEXT,
                                 OUT wallet_user_id BIGINT, OUT wallet_public_id TEXT,
                                 OUT wallet_proven BOOLEAN, OUT account token_accounts,
                                 OUT token_name TEXT, OUT token_symbol TEXT,
                                 OUT token_decimals INTEGER, OUT time_us BIGINT,
                                 OUT new_redemption_id BIGINT, OUT taken_count BIGINT,
                                 OUT taken_amount BIGINT)
  LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  taken_count := 0;
  taken_amount := 0;
  SELECT t.name, t.symbol, t.decimals INTO token_name, token_symbol, token_decimals FROM token t;
  time_us := epoch_us(now());
  SELECT w.user_id, w.public_id, w.proven_at IS NOT NULL
    INTO wallet_user_id, wallet_public_id, wallet_proven
    FROM wallets w WHERE w.address = wallet FOR NO KEY UPDATE;
  IF wallet_user_id IS DISTINCT FROM redeemer THEN
    RETURN;
  END IF;
  SELECT a.* INTO account FROM token_accounts a WHERE a.wallet_address = wallet;
  IF FOUND AND account.confidential_public_key <> confidential_key THEN
    RETURN;
  END IF;
  new_redemption_id := nextval(pg_get_serial_sequence('redemptions', 'id'));
  WITH taken AS (
    UPDATE vouchers v SET status = 'REDEEMED', redeemed_at = now(),
                          redemption_id = new_redemption_id
      WHERE v.user_id = redeemer AND v.wallet_address = wallet AND v.status = 'CLAIMED'
        AND (v.expires_at IS NULL OR v.expires_at > now())
      RETURNING v.amount)
  SELECT count(*), COALESCE(sum(taken.amount), 0) INTO taken_count, taken_amount FROM taken;
END $$;
