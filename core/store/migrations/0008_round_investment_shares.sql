-- Claims by different investors no longer queue on their round's one row of round_investment
-- (issue 27). The vouchers' trigger (migration 0003) updated that row in every claim and held it
-- until the claim committed, so the claims of a round committed one after another: with 32
-- investors claiming at once, nearly all of a claim's time in PostgreSQL was the wait for it. The
-- figures now live in shares of each round, one per investor's user_id modulo 32 (one investor's
-- claims are serialised anyway: core/domain/voucher.cc locks the user); two claims meet on a row
-- only when their investors' ids fall in the same share. A share may go below 0 (a voucher counted
-- in share 0 by the copy below, revoked later, is taken off its investor's share): only the sums
-- mean anything.
--
-- round_investment becomes a view of the same name and columns adding a round's shares up, so
-- every reader, the release before included, reads the same figures by the same statements while
-- both releases run (core/store/token.cc reads it; tests/database/round_investment_shares_test.cc
-- runs the release before's statement, prepared before this migration, after it).
-- contract: the table round_investment is dropped and replaced by a view of the same name and
-- columns: the release before only reads it by name (core/store/token.cc, investment_figures;
-- its writes are this file's trigger function), and a name is resolved again when a prepared
-- statement is re-planned after this change, so it reads the view and the same figures.

-- First, before any other lock: writers of vouchers wait here until this commits, so none is
-- counted in round_investment after the copy below has read it, and none reaches the trigger's
-- write before the new function is in.
LOCK TABLE vouchers IN SHARE MODE;

CREATE TABLE round_investment_shares (
  round_id  BIGINT NOT NULL REFERENCES rounds (id),
  share     SMALLINT NOT NULL CHECK (share BETWEEN 0 AND 31),
  invested  BIGINT NOT NULL,  -- Σ amount over CLAIMED and REDEEMED, of this share
  redeemed  BIGINT NOT NULL,  -- Σ amount over REDEEMED, of this share
  PRIMARY KEY (round_id, share)
);

INSERT INTO round_investment_shares (round_id, share, invested, redeemed)
  SELECT round_id, 0, invested, redeemed FROM round_investment;
DROP TABLE round_investment;
CREATE VIEW round_investment AS
  SELECT round_id, sum(invested)::BIGINT AS invested, sum(redeemed)::BIGINT AS redeemed
  FROM round_investment_shares GROUP BY round_id;

CREATE OR REPLACE FUNCTION apply_voucher_contributions(changes voucher_contribution[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  investors_delta BIGINT;
  claimed voucher_contribution;
  vouchers_now BIGINT;
BEGIN
  -- A claim, the write every claimVoucher makes: one voucher from AVAILABLE to CLAIMED. It changes
  -- the same rows as the general case below, in the same order, by statements on scalars instead
  -- of unnest and grouping: the trigger then costs a claim about a third as much
  -- (docs/benchmarks.md, "round figures in shares").
  IF cardinality(changes) = 2 AND (changes[1]).sign = -1 AND (changes[1]).status = 'AVAILABLE'
     AND (changes[2]).sign = 1 AND (changes[2]).status = 'CLAIMED' THEN
    claimed := changes[2];
    PERFORM pg_notify('netgraph_data', '');
    INSERT INTO round_investment_shares AS r (round_id, share, invested, redeemed)
      VALUES (claimed.round_id, (claimed.user_id % 32)::SMALLINT, claimed.amount, 0)
      ON CONFLICT (round_id, share) DO UPDATE SET invested = r.invested + EXCLUDED.invested;
    INSERT INTO investor_vouchers AS i (user_id, vouchers) VALUES (claimed.user_id, 1)
      ON CONFLICT (user_id) DO UPDATE SET vouchers = i.vouchers + 1
      RETURNING i.vouchers INTO vouchers_now;
    IF vouchers_now = 1 THEN  -- a new investor
      UPDATE investment_totals SET investors = investors + 1;
    END IF;
    RETURN;
  END IF;
  -- Only rows that were or became CLAIMED or REDEEMED change anything.
  IF NOT EXISTS (SELECT 1 FROM unnest(changes) c WHERE c.status IN ('CLAIMED', 'REDEEMED')) THEN
    RETURN;
  END IF;
  PERFORM pg_notify('netgraph_data', '');
  -- Rows are written in key order, so writers touching several rounds or users never deadlock.
  -- A counted row always has a user (the vouchers' CHECK), so its share is known.
  INSERT INTO round_investment_shares AS r (round_id, share, invested, redeemed)
    SELECT c.round_id, (c.user_id % 32)::SMALLINT, sum(c.sign * c.amount),
           COALESCE(sum(c.sign * c.amount) FILTER (WHERE c.status = 'REDEEMED'), 0)
    FROM unnest(changes) c WHERE c.status IN ('CLAIMED', 'REDEEMED')
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (round_id, share) DO UPDATE
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
