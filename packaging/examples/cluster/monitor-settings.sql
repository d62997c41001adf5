-- How fast the pg_auto_failover monitor fails over (docs/operations.md, "Several hosts"): run on
-- the monitor, `runuser -u postgres -- psql -d pg_auto_failover < monitor-settings.sql`.
-- With these, a primary that stops answering is replaced about 10 s later (the defaults take
-- about a minute). Shorter is riskier: a primary that is only slow for longer than this is
-- failed over too, which costs a few seconds of refused writes.
ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 4000;
ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 4000;
SELECT pg_reload_conf();
