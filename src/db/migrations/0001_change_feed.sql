-- Change feed for in-process caches (src/db/change-feed.ts): any statement that changes what the
-- gate or the cached reads depend on notifies channel `sitegate_change` with the table's name.
-- Statement-level, so a bulk write costs one notification; delivered at commit.
CREATE OR REPLACE FUNCTION sitegate_notify_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('sitegate_change', TG_TABLE_NAME);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER connections_change AFTER INSERT OR DELETE OR UPDATE OF revoked_at, scopes, reach, website_id, token_hash, created_by, company_id, client_kind ON connections FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER connections_truncate AFTER TRUNCATE ON connections FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER website_members_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON website_members FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER companies_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER websites_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON websites FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER pages_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pages FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER sections_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sections FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER brands_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER company_memory_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON company_memory FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
--> statement-breakpoint
CREATE TRIGGER domains_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON domains FOR EACH STATEMENT EXECUTE FUNCTION sitegate_notify_change();
