-- What a user's portfolio shows (getUserPortfolio: core/domain/portfolio.h) changes only with a
-- write to that user's vouchers, wallets, token accounts or user row, or to the rounds and the
-- token every portfolio's figures use. Each such write notifies channel netgraph_portfolio in its
-- own transaction, delivered at commit and only if it commits: the user's id, or '*' for every
-- user. The pool's relay listens and moves the users' generations the workers' portfolio caches
-- are valid for (core/api/portfolio_cache.h, fcgi/pool/outbox_relay_process.h). Triggers, not the
-- statements that write, so that no writer can forget, the release before this one included: its
-- statements are unchanged and its writes notify too.

CREATE FUNCTION notify_portfolios(user_ids BIGINT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- pg_notify drops repeats of one channel and payload within a transaction.
  PERFORM pg_notify('netgraph_portfolio', u::text)
    FROM (SELECT DISTINCT u FROM unnest(user_ids) u WHERE u IS NOT NULL ORDER BY u) ids;
END $$;

-- A row's user, before and after the write. A trigger with transition tables handles one event only,
-- so each table has a trigger per event, and the function reads only the tables its event has.
CREATE FUNCTION portfolio_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM notify_portfolios(ARRAY(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM notify_portfolios(ARRAY(SELECT user_id FROM old_rows UNION SELECT user_id FROM new_rows));
  ELSE
    PERFORM notify_portfolios(ARRAY(SELECT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

-- Vouchers and wallets name their user.
CREATE TRIGGER vouchers_portfolio_insert AFTER INSERT ON vouchers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER vouchers_portfolio_update AFTER UPDATE ON vouchers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER vouchers_portfolio_delete AFTER DELETE ON vouchers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER wallets_portfolio_insert AFTER INSERT ON wallets
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER wallets_portfolio_update AFTER UPDATE ON wallets
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();
CREATE TRIGGER wallets_portfolio_delete AFTER DELETE ON wallets
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION portfolio_rows_changed();

-- A user row is its own user (the portfolio shows its email).
CREATE FUNCTION users_portfolio_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM notify_portfolios(ARRAY(SELECT id FROM old_rows));
  ELSE
    PERFORM notify_portfolios(ARRAY(SELECT id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER users_portfolio_update AFTER UPDATE ON users
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_portfolio_changed();
CREATE TRIGGER users_portfolio_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION users_portfolio_changed();

-- A token account belongs to whoever owns its wallet.
CREATE FUNCTION token_accounts_portfolio_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM notify_portfolios(ARRAY(
      SELECT w.user_id FROM wallets w JOIN new_rows n ON n.wallet_address = w.address));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM notify_portfolios(ARRAY(
      SELECT w.user_id FROM wallets w JOIN new_rows n ON n.wallet_address = w.address
      UNION SELECT w.user_id FROM wallets w JOIN old_rows o ON o.wallet_address = w.address));
  ELSE
    PERFORM notify_portfolios(ARRAY(
      SELECT w.user_id FROM wallets w JOIN old_rows o ON o.wallet_address = w.address));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER token_accounts_portfolio_insert AFTER INSERT ON token_accounts
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_accounts_portfolio_changed();
CREATE TRIGGER token_accounts_portfolio_update AFTER UPDATE ON token_accounts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_accounts_portfolio_changed();
CREATE TRIGGER token_accounts_portfolio_delete AFTER DELETE ON token_accounts
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION token_accounts_portfolio_changed();

-- Round prices and the token's decimals enter every portfolio's figures.
CREATE FUNCTION notify_all_portfolios() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('netgraph_portfolio', '*');
  RETURN NULL;
END $$;
CREATE TRIGGER rounds_portfolio_changed AFTER INSERT OR UPDATE OR DELETE ON rounds
  FOR EACH STATEMENT EXECUTE FUNCTION notify_all_portfolios();
CREATE TRIGGER token_portfolio_changed AFTER INSERT OR UPDATE OR DELETE ON token
  FOR EACH STATEMENT EXECUTE FUNCTION notify_all_portfolios();
