-- The gate's cached facts (src/gate/authorize.ts) are auth facts: a website created, deleted or moved to
-- another workspace changes them, a content write to its row (the draft revision every edit raises)
-- does not. On PGlite the change feed named only the table, so every edit emptied the gate's cache and
-- the next call read the facts again; it now also says `websites:auth` for the changes that matter to
-- the gate. (PostgreSQL keeps that cache under the auth version of 0007 and notifies nothing, 0008.)
CREATE OR REPLACE FUNCTION sitegate_notify_change_as() RETURNS trigger AS $$
BEGIN
  IF current_setting('sitegate.change_feed', true) IS DISTINCT FROM 'on' THEN RETURN NULL; END IF;
  PERFORM pg_notify('sitegate_change', TG_ARGV[0]);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER websites_auth_change AFTER INSERT OR DELETE OR UPDATE OF company_id OR TRUNCATE ON websites FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change_as('websites:auth');
