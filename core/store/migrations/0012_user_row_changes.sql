-- A user's row announced on a channel of its own (issue 27): netgraph_user, the user's id, at commit
-- of every write to users, as netgraph_portfolio already announces it (migration 0007). The pool's
-- workers keep their callers' users in memory (core/api/user_cache.h) while these announcements
-- say the rows did not change; netgraph_portfolio could not serve, as it announces the user at
-- every claim too. The relay listens (fcgi/pool/outbox_relay_process.h).
--
-- Replaced in place: the release before listens to netgraph_portfolio only, which still hears what
-- it heard.
CREATE OR REPLACE FUNCTION users_portfolio_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids BIGINT[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    ids := ARRAY(SELECT id FROM old_rows);
  ELSE
    ids := ARRAY(SELECT id FROM new_rows);
  END IF;
  PERFORM notify_portfolios(ids);
  -- pg_notify drops repeats of one channel and payload within a transaction.
  PERFORM pg_notify('netgraph_user', u::text)
    FROM (SELECT DISTINCT u FROM unnest(ids) u ORDER BY u) rows;
  RETURN NULL;
END $$;
