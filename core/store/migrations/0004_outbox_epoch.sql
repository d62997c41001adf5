-- The outbox's epoch: a random name for this run of outbox ids. A database that is reset (dropped
-- and migrated again, or restored from a dump taken before) starts its ids over; subscribers that
-- remember the ids they saw would drop the new ones as repeats. Each update carries the epoch
-- (core/domain/graph_change.h), and netgraph-ws starts its tracking afresh when it changes
-- (ws/update.h). Whoever resets the ids by hand must give the outbox a new epoch too.
ALTER TABLE outbox_sequence ADD COLUMN epoch TEXT NOT NULL DEFAULT gen_random_uuid()::text;
