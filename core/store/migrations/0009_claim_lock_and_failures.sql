-- A claim's first two statements in one round trip (issue 27): the claimant's lock (one claim per
-- user at a time, core/domain/voucher.cc) and then the count of their recent failed claims, which
-- the rate limit compares with its maximum. Two statements of a function rather than one SQL
-- statement: at READ COMMITTED each statement of a VOLATILE function reads a new snapshot, so the
-- count, taken once the lock is granted, sees every failure that the claim holding the lock before
-- recorded and committed; one statement would count with the snapshot it took before waiting for
-- the lock, and a user could exceed the limit by claiming at once
-- (tests/database/domain/voucher_test.cc). Added only: the release before keeps its own two
-- statements, which lock and count the same rows.
CREATE FUNCTION lock_claimant(claimant BIGINT, window_seconds BIGINT) RETURNS BIGINT
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  failures BIGINT;
BEGIN
  PERFORM 1 FROM users WHERE id = claimant FOR NO KEY UPDATE;
  SELECT count(*) INTO failures FROM claim_failures
    WHERE user_id = claimant AND failed_at > now() - make_interval(secs => window_seconds);
  RETURN failures;
END $$;
