-- Where the outbox's epoch begins. A database restored from a dump (pg_restore, or psql of a plain
-- dump) brings back its epoch and a last_id from before the dump, although the relay has already
-- published later ids under that epoch: subscribers would drop the ids taken again as repeats. The
-- relay notices (it remembers what it published: core/domain/outbox_relay.h) and starts a new epoch
-- there, without renumbering: the ids after epoch_start are the new epoch's, those up to it belong
-- to earlier ones. A database created afresh starts at 0. Whoever resets the ids by hand sets a new
-- epoch and an epoch_start no greater than last_id (0 when the ids start over), as
-- store::StartOutboxEpoch does; the CHECK refuses a start the ids have not reached.
ALTER TABLE outbox_sequence ADD COLUMN epoch_start BIGINT NOT NULL DEFAULT 0,
  ADD CONSTRAINT outbox_epoch_start_reached CHECK (epoch_start >= 0 AND epoch_start <= last_id);
