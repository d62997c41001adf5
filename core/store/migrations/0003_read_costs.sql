-- What the public reads cost (issue 11). investmentData reads figures kept up to date as vouchers
-- change, instead of aggregating every voucher on each read; a change of the public data notifies
-- channel netgraph_data at commit, so the pool's relay can invalidate its workers' read caches
-- (fcgi/pool/outbox_relay_process.h). networkGraph's statements changed in core/store/graph.cc only.

-- Invested amounts per round by stored status: a voucher counts while it is CLAIMED or REDEEMED.
-- Readers subtract the claims whose expires_at has passed but which the relay's sweep has not yet
-- stored as EXPIRED (core/store/token.cc), as voucher_state does. The figures never go below 0,
-- but no CHECK says so: an upsert checks its proposed row, a negative change, before it meets the
-- existing one.
CREATE TABLE round_investment (
  round_id  BIGINT PRIMARY KEY REFERENCES rounds (id),
  invested  BIGINT NOT NULL,  -- Σ amount over CLAIMED and REDEEMED
  redeemed  BIGINT NOT NULL   -- Σ amount over REDEEMED
);

-- Per user, how many of their vouchers are CLAIMED or REDEEMED; a user is an investor while it is
-- above 0 (rows that reach 0 are deleted).
CREATE TABLE investor_vouchers (
  user_id   BIGINT PRIMARY KEY REFERENCES users (id),
  vouchers  BIGINT NOT NULL
);

-- The number of rows of investor_vouchers. Written only when an investor appears or goes, so
-- claims by existing investors do not queue on this row.
CREATE TABLE investment_totals (
  id         BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),  -- exactly one row
  investors  BIGINT NOT NULL CHECK (investors >= 0)
);

-- For the overdue claims readers subtract and for when the figures next change by time alone.
CREATE INDEX vouchers_claimed_due ON vouchers (expires_at) WHERE status = 'CLAIMED';

-- What a set of voucher rows adds to the figures; `sign` is -1 for rows as they were before.
CREATE TYPE voucher_contribution AS (round_id BIGINT, user_id BIGINT, amount BIGINT,
                                     status TEXT, sign INTEGER);

CREATE FUNCTION apply_voucher_contributions(changes voucher_contribution[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  investors_delta BIGINT;
BEGIN
  -- Only rows that were or became CLAIMED or REDEEMED change anything.
  IF NOT EXISTS (SELECT 1 FROM unnest(changes) c WHERE c.status IN ('CLAIMED', 'REDEEMED')) THEN
    RETURN;
  END IF;
  PERFORM pg_notify('netgraph_data', '');
  -- Rows are written in key order, so writers touching several rounds or users never deadlock.
  INSERT INTO round_investment AS r (round_id, invested, redeemed)
    SELECT c.round_id, sum(c.sign * c.amount),
           COALESCE(sum(c.sign * c.amount) FILTER (WHERE c.status = 'REDEEMED'), 0)
    FROM unnest(changes) c WHERE c.status IN ('CLAIMED', 'REDEEMED')
    GROUP BY c.round_id ORDER BY c.round_id
    ON CONFLICT (round_id) DO UPDATE
      SET invested = r.invested + EXCLUDED.invested,
          redeemed = r.redeemed + EXCLUDED.redeemed;
  WITH delta AS (
    SELECT c.user_id, sum(c.sign)::BIGINT AS n FROM unnest(changes) c
    WHERE c.status IN ('CLAIMED', 'REDEEMED')
    GROUP BY c.user_id HAVING sum(c.sign) <> 0 ORDER BY c.user_id),
  counted AS (
    INSERT INTO investor_vouchers AS i (user_id, vouchers) SELECT user_id, n FROM delta
    ON CONFLICT (user_id) DO UPDATE SET vouchers = i.vouchers + EXCLUDED.vouchers
    RETURNING i.user_id, i.vouchers)
  SELECT count(*) FILTER (WHERE counted.vouchers > 0 AND counted.vouchers = delta.n)
         - count(*) FILTER (WHERE counted.vouchers = 0)
    INTO investors_delta
    FROM counted JOIN delta USING (user_id);
  DELETE FROM investor_vouchers i USING unnest(changes) c
    WHERE i.user_id = c.user_id AND i.vouchers = 0;
  IF investors_delta <> 0 THEN
    UPDATE investment_totals SET investors = investors + investors_delta;
  END IF;
END $$;

-- One function per event: a trigger with transition tables handles one event only.
CREATE FUNCTION vouchers_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM apply_voucher_contributions(ARRAY(
    SELECT ROW(round_id, user_id, amount, status, 1)::voucher_contribution FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION vouchers_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM apply_voucher_contributions(ARRAY(
    SELECT ROW(round_id, user_id, amount, status, -1)::voucher_contribution FROM old_rows
    UNION ALL
    SELECT ROW(round_id, user_id, amount, status, 1)::voucher_contribution FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION vouchers_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM apply_voucher_contributions(ARRAY(
    SELECT ROW(round_id, user_id, amount, status, -1)::voucher_contribution FROM old_rows));
  RETURN NULL;
END $$;

-- Created before the backfill: the triggers' locks keep writers out until this commits.
CREATE TRIGGER vouchers_investment_insert AFTER INSERT ON vouchers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION vouchers_inserted();
CREATE TRIGGER vouchers_investment_update AFTER UPDATE ON vouchers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION vouchers_updated();
CREATE TRIGGER vouchers_investment_delete AFTER DELETE ON vouchers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION vouchers_deleted();

-- Rounds and the token row change rarely (netgraphctl); any write to them is announced.
CREATE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('netgraph_data', '');
  RETURN NULL;
END $$;
CREATE TRIGGER rounds_changed AFTER INSERT OR UPDATE OR DELETE ON rounds
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
CREATE TRIGGER token_changed AFTER INSERT OR UPDATE OR DELETE ON token
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();

INSERT INTO round_investment (round_id, invested, redeemed)
  SELECT round_id, sum(amount), COALESCE(sum(amount) FILTER (WHERE status = 'REDEEMED'), 0)
  FROM vouchers WHERE status IN ('CLAIMED', 'REDEEMED') GROUP BY round_id;
INSERT INTO investor_vouchers (user_id, vouchers)
  SELECT user_id, count(*) FROM vouchers WHERE status IN ('CLAIMED', 'REDEEMED') GROUP BY user_id;
INSERT INTO investment_totals (investors) SELECT count(*) FROM investor_vouchers;
