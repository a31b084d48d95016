-- The change feed (0001) notifies only where a process listens for it: the embedded PGlite, which
-- starts with sitegate.change_feed=on (src/db/client.ts). On PostgreSQL nobody listens (caches follow
-- the versions of 0007), yet every NOTIFY is queued, and a committing transaction that notified holds
-- one cluster-wide lock through its WAL flush: every content write of every workspace and process
-- committed one at a time (pgbench, 16 clients updating distinct rows on this project's test machine:
-- 3,723-3,849 transactions/s with the NOTIFY against 7,478-8,308 without it, in one run).
CREATE OR REPLACE FUNCTION sitegate_notify_change() RETURNS trigger AS $$
BEGIN
  IF current_setting('sitegate.change_feed', true) IS DISTINCT FROM 'on' THEN RETURN NULL; END IF;
  PERFORM pg_notify('sitegate_change', TG_TABLE_NAME);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
