ALTER TABLE "websites" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written: deleting or restoring a site changes what the gate decides (a deleted site is not
-- found), so it is an auth change like a site created or moved: the PGlite change feed names
-- `websites:auth` for it (0009) and the PostgreSQL cache versions bump the workspace's auth part (0007).
DROP TRIGGER IF EXISTS websites_auth_change ON websites;
--> statement-breakpoint
CREATE TRIGGER websites_auth_change AFTER INSERT OR DELETE OR UPDATE OF company_id, deleted_at OR TRUNCATE ON websites FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change_as('websites:auth');
--> statement-breakpoint
CREATE TRIGGER websites_version_deleted AFTER UPDATE OF deleted_at ON websites FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company', 'auth');
