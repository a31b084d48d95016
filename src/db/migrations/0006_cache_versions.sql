-- Cache versions for processes sharing one PostgreSQL (issue 17; src/db/versions.ts). Every change to
-- a row that a cache may hold (who a token is, the gate's live facts, cacheable reads) bumps its
-- workspace's version in the same transaction, so the new version is visible exactly when the change
-- is. A process checks the caller's workspace version once per request (one indexed read) and uses
-- what it cached under that version only if it is still current: a revocation, role change or
-- withheld area holds at the very next call on every process. Row-level, so the workspace is known;
-- one row per workspace, so writes of different workspaces never wait on each other.
CREATE TABLE sitegate_versions (
  company_id text PRIMARY KEY,
  v bigint NOT NULL
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION sitegate_bump_version() RETURNS trigger AS $$
DECLARE
  r record;
  c text;
  old_c text;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_ARGV[0] = 'self' THEN
    c := r.id;
  ELSIF TG_ARGV[0] = 'company' THEN
    c := r.company_id;
    IF TG_OP = 'UPDATE' THEN old_c := OLD.company_id; END IF;
  ELSE
    SELECT w.company_id INTO c FROM websites w WHERE w.id = r.website_id;
  END IF;
  IF c IS NOT NULL THEN
    INSERT INTO sitegate_versions AS s (company_id, v) VALUES (c, 1)
      ON CONFLICT (company_id) DO UPDATE SET v = s.v + 1;
  END IF;
  IF old_c IS NOT NULL AND old_c IS DISTINCT FROM c THEN
    INSERT INTO sitegate_versions AS s (company_id, v) VALUES (old_c, 1)
      ON CONFLICT (company_id) DO UPDATE SET v = s.v + 1;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER connections_version AFTER INSERT OR DELETE OR UPDATE OF revoked_at, scopes, reach, website_id, token_hash, created_by, company_id, client_kind ON connections FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company');
--> statement-breakpoint
CREATE TRIGGER companies_version AFTER INSERT OR UPDATE OR DELETE ON companies FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('self');
--> statement-breakpoint
CREATE TRIGGER websites_version AFTER INSERT OR UPDATE OR DELETE ON websites FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company');
--> statement-breakpoint
CREATE TRIGGER website_members_version AFTER INSERT OR UPDATE OR DELETE ON website_members FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website');
--> statement-breakpoint
CREATE TRIGGER pages_version AFTER INSERT OR UPDATE OR DELETE ON pages FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website');
--> statement-breakpoint
CREATE TRIGGER sections_version AFTER INSERT OR UPDATE OR DELETE ON sections FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website');
--> statement-breakpoint
CREATE TRIGGER brands_version AFTER INSERT OR UPDATE OR DELETE ON brands FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website');
--> statement-breakpoint
CREATE TRIGGER company_memory_version AFTER INSERT OR UPDATE OR DELETE ON company_memory FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company');
--> statement-breakpoint
CREATE TRIGGER domains_version AFTER INSERT OR UPDATE OR DELETE ON domains FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website');
--> statement-breakpoint
-- TRUNCATE names no rows: it bumps the version every workspace's read includes (row '*').
CREATE OR REPLACE FUNCTION sitegate_bump_all_versions() RETURNS trigger AS $$
BEGIN
  INSERT INTO sitegate_versions AS s (company_id, v) VALUES ('*', 1)
    ON CONFLICT (company_id) DO UPDATE SET v = s.v + 1;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER connections_version_truncate AFTER TRUNCATE ON connections FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER companies_version_truncate AFTER TRUNCATE ON companies FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER websites_version_truncate AFTER TRUNCATE ON websites FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER website_members_version_truncate AFTER TRUNCATE ON website_members FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER pages_version_truncate AFTER TRUNCATE ON pages FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER sections_version_truncate AFTER TRUNCATE ON sections FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER brands_version_truncate AFTER TRUNCATE ON brands FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER company_memory_version_truncate AFTER TRUNCATE ON company_memory FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
--> statement-breakpoint
CREATE TRIGGER domains_version_truncate AFTER TRUNCATE ON domains FOR EACH STATEMENT EXECUTE FUNCTION sitegate_bump_all_versions();
