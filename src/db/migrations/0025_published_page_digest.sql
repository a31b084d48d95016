ALTER TABLE "published_page_digests" ADD COLUMN "digest" text;--> statement-breakpoint
-- Each live page's digest (md5 of the page as the snapshot holds it) is kept beside its fields, and only
-- the pages whose digest moved have their sections' digests computed again: a publish of one change
-- hashes every page once and that page's sections, and writes the rows of what changed alone. A process
-- holding an earlier snapshot parsed reads the pages whose digest moved, not the whole snapshot
-- (src/domain/sites/view.ts).
CREATE OR REPLACE FUNCTION sitegate_published_digests() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  IF NEW.published IS NULL THEN
    DELETE FROM published_section_digests WHERE website_id = NEW.id;
    DELETE FROM published_page_digests WHERE website_id = NEW.id;
    RETURN NULL;
  END IF;
  WITH n AS (
    SELECT NEW.id AS website_id, p->>'id' AS page_id, pi::int AS position, p->>'slug' AS slug,
           p->>'title' AS title, p->>'kind' AS kind, p->>'excerpt' AS excerpt, p ? 'excerpt' AS has_excerpt,
           p->>'seoTitle' AS seo_title, p->>'seoDescription' AS seo_description, md5(p::text) AS digest
    FROM jsonb_array_elements(NEW.published->'pages') WITH ORDINALITY AS pp(p, pi)
  ), gone AS (
    DELETE FROM published_page_digests d
    WHERE d.website_id = NEW.id AND NOT EXISTS (SELECT 1 FROM n WHERE n.page_id = d.page_id)
  ), written AS (
    INSERT INTO published_page_digests AS d
      (website_id, page_id, position, slug, title, kind, excerpt, has_excerpt, seo_title, seo_description, digest)
    SELECT * FROM n
    ON CONFLICT (website_id, page_id) DO UPDATE SET
      position = excluded.position, slug = excluded.slug, title = excluded.title, kind = excluded.kind,
      excerpt = excluded.excerpt, has_excerpt = excluded.has_excerpt, seo_title = excluded.seo_title,
      seo_description = excluded.seo_description, digest = excluded.digest
    WHERE (d.position, d.slug, d.title, d.kind, d.excerpt, d.has_excerpt, d.seo_title, d.seo_description, d.digest)
      IS DISTINCT FROM (excluded.position, excluded.slug, excluded.title, excluded.kind, excluded.excerpt,
                        excluded.has_excerpt, excluded.seo_title, excluded.seo_description, excluded.digest)
    RETURNING d.page_id, (xmax = 0) AS inserted
  )
  -- The pages added, or whose digest moved (a page only moved in the list keeps its sections' rows).
  SELECT coalesce(array_agg(w.page_id), '{}') INTO changed
  FROM written w JOIN n ON n.page_id = w.page_id
  WHERE w.inserted OR NOT EXISTS (
    SELECT 1 FROM published_page_digests d
    WHERE d.website_id = NEW.id AND d.page_id = w.page_id AND d.digest IS NOT DISTINCT FROM n.digest);
  WITH n AS (
    SELECT NEW.id AS website_id, s->>'id' AS section_id, p->>'id' AS page_id, si::int AS position,
           coalesce(s->>'type', '') AS type, coalesce((s->>'hidden')::boolean, false) AS hidden,
           md5(coalesce(s->'content', 'null'::jsonb)::text || '|' || coalesce(s->'layout', 'null'::jsonb)::text) AS digest
    FROM jsonb_array_elements(NEW.published->'pages') AS pp(p)
    CROSS JOIN LATERAL jsonb_array_elements(p->'sections') WITH ORDINALITY AS ss(s, si)
    WHERE p->>'id' = ANY(changed)
  ), gone AS (
    DELETE FROM published_section_digests d
    WHERE d.website_id = NEW.id
      AND (d.page_id = ANY(changed)
           OR NOT EXISTS (SELECT 1 FROM published_page_digests pd
                          WHERE pd.website_id = NEW.id AND pd.page_id = d.page_id))
      AND NOT EXISTS (SELECT 1 FROM n WHERE n.section_id = d.section_id)
  )
  INSERT INTO published_section_digests AS d (website_id, section_id, page_id, position, type, hidden, digest)
  SELECT * FROM n
  ON CONFLICT (website_id, section_id) DO UPDATE SET
    page_id = excluded.page_id, position = excluded.position, type = excluded.type,
    hidden = excluded.hidden, digest = excluded.digest
  WHERE (d.page_id, d.position, d.type, d.hidden, d.digest)
    IS DISTINCT FROM (excluded.page_id, excluded.position, excluded.type, excluded.hidden, excluded.digest);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The digests of the pages live before this migration.
UPDATE websites SET published = published WHERE published IS NOT NULL;
