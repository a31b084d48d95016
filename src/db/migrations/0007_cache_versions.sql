-- Cache versions for processes sharing one PostgreSQL (docs/performance.md; src/db/versions.ts). Every change
-- to a row that a cache may hold bumps its workspace's versions in the same transaction, so a new
-- version is visible exactly when the change is: `auth` for who a token is and what the gate decides
-- on (connections, members, the workspace's grants and areas, which websites it has), `content` for
-- everything cacheable reads and the gate's website row show. A process reads the caller's versions
-- once per request (one indexed read) and uses what it cached only under current versions: a
-- revocation, role change or withheld area holds at the very next call on every process. Row-level,
-- so the workspace is known; one row per workspace, so writes of different workspaces never wait on
-- each other.
CREATE TABLE sitegate_versions (
  company_id text PRIMARY KEY,
  auth bigint NOT NULL DEFAULT 0,
  content bigint NOT NULL DEFAULT 0
);
--> statement-breakpoint
-- TG_ARGV[0]: how the row names its workspace (self: it is one; company: company_id; website: through
-- website_id). TG_ARGV[1]: auth, content or both. A website's UPDATE is content unless it moves.
CREATE OR REPLACE FUNCTION sitegate_bump_version() RETURNS trigger AS $$
DECLARE
  r record;
  c text;
  old_c text;
  a int := CASE WHEN TG_ARGV[1] IN ('auth', 'both') THEN 1 ELSE 0 END;
  k int := CASE WHEN TG_ARGV[1] IN ('content', 'both') THEN 1 ELSE 0 END;
BEGIN
  -- The embedded PGlite (one process) keeps its caches by the change feed and starts with this off.
  IF current_setting('sitegate.cache_versions', true) = 'off' THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF TG_ARGV[0] = 'self' THEN
    c := r.id;
  ELSIF TG_ARGV[0] = 'company' THEN
    c := r.company_id;
    IF TG_OP = 'UPDATE' AND OLD.company_id IS DISTINCT FROM NEW.company_id THEN
      old_c := OLD.company_id;
      a := 1;
    END IF;
  ELSE
    SELECT w.company_id INTO c FROM websites w WHERE w.id = r.website_id;
  END IF;
  IF c IS NOT NULL THEN
    INSERT INTO sitegate_versions AS s (company_id, auth, content) VALUES (c, a, k)
      ON CONFLICT (company_id) DO UPDATE SET auth = s.auth + a, content = s.content + k;
  END IF;
  IF old_c IS NOT NULL THEN
    INSERT INTO sitegate_versions AS s (company_id, auth, content) VALUES (old_c, 1, 1)
      ON CONFLICT (company_id) DO UPDATE SET auth = s.auth + 1, content = s.content + 1;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER connections_version AFTER INSERT OR DELETE OR UPDATE OF revoked_at, scopes, reach, website_id, token_hash, created_by, company_id, client_kind ON connections FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company', 'auth');
--> statement-breakpoint
CREATE TRIGGER companies_version AFTER INSERT OR UPDATE OR DELETE ON companies FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('self', 'both');
--> statement-breakpoint
CREATE TRIGGER websites_version AFTER INSERT OR DELETE ON websites FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company', 'both');
--> statement-breakpoint
CREATE TRIGGER websites_version_update AFTER UPDATE ON websites FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company', 'content');
--> statement-breakpoint
CREATE TRIGGER website_members_version AFTER INSERT OR UPDATE OR DELETE ON website_members FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website', 'both');
--> statement-breakpoint
CREATE TRIGGER pages_version AFTER INSERT OR UPDATE OR DELETE ON pages FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website', 'content');
--> statement-breakpoint
CREATE TRIGGER sections_version AFTER INSERT OR UPDATE OR DELETE ON sections FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website', 'content');
--> statement-breakpoint
CREATE TRIGGER brands_version AFTER INSERT OR UPDATE OR DELETE ON brands FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website', 'content');
--> statement-breakpoint
CREATE TRIGGER company_memory_version AFTER INSERT OR UPDATE OR DELETE ON company_memory FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('company', 'content');
--> statement-breakpoint
CREATE TRIGGER domains_version AFTER INSERT OR UPDATE OR DELETE ON domains FOR EACH ROW EXECUTE FUNCTION sitegate_bump_version('website', 'content');
--> statement-breakpoint
-- TRUNCATE names no rows: it bumps the version every workspace's read includes (row '*').
CREATE OR REPLACE FUNCTION sitegate_bump_all_versions() RETURNS trigger AS $$
BEGIN
  IF current_setting('sitegate.cache_versions', true) = 'off' THEN RETURN NULL; END IF;
  INSERT INTO sitegate_versions AS s (company_id, auth, content) VALUES ('*', 1, 1)
    ON CONFLICT (company_id) DO UPDATE SET auth = s.auth + 1, content = s.content + 1;
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
