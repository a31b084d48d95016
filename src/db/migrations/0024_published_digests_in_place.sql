-- The live site's digests (migration 0020) are brought to a new snapshot in place: rows of pages and
-- sections that left it are deleted, new ones inserted, changed ones updated, and the rest not touched,
-- so a publish of one change writes a few rows instead of replacing every page's and section's.
CREATE OR REPLACE FUNCTION sitegate_published_digests() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.published IS NULL THEN
    DELETE FROM published_section_digests WHERE website_id = NEW.id;
    DELETE FROM published_page_digests WHERE website_id = NEW.id;
    RETURN NULL;
  END IF;
  WITH n AS (
    SELECT NEW.id AS website_id, p->>'id' AS page_id, pi::int AS position, p->>'slug' AS slug,
           p->>'title' AS title, p->>'kind' AS kind, p->>'excerpt' AS excerpt, p ? 'excerpt' AS has_excerpt,
           p->>'seoTitle' AS seo_title, p->>'seoDescription' AS seo_description
    FROM jsonb_array_elements(NEW.published->'pages') WITH ORDINALITY AS pp(p, pi)
  ), gone AS (
    DELETE FROM published_page_digests d
    WHERE d.website_id = NEW.id AND NOT EXISTS (SELECT 1 FROM n WHERE n.page_id = d.page_id)
  )
  INSERT INTO published_page_digests AS d
    (website_id, page_id, position, slug, title, kind, excerpt, has_excerpt, seo_title, seo_description)
  SELECT * FROM n
  ON CONFLICT (website_id, page_id) DO UPDATE SET
    position = excluded.position, slug = excluded.slug, title = excluded.title, kind = excluded.kind,
    excerpt = excluded.excerpt, has_excerpt = excluded.has_excerpt, seo_title = excluded.seo_title,
    seo_description = excluded.seo_description
  WHERE (d.position, d.slug, d.title, d.kind, d.excerpt, d.has_excerpt, d.seo_title, d.seo_description)
    IS DISTINCT FROM (excluded.position, excluded.slug, excluded.title, excluded.kind, excluded.excerpt,
                      excluded.has_excerpt, excluded.seo_title, excluded.seo_description);
  WITH n AS (
    SELECT NEW.id AS website_id, s->>'id' AS section_id, p->>'id' AS page_id, si::int AS position,
           coalesce(s->>'type', '') AS type, coalesce((s->>'hidden')::boolean, false) AS hidden,
           md5(coalesce(s->'content', 'null'::jsonb)::text || '|' || coalesce(s->'layout', 'null'::jsonb)::text) AS digest
    FROM jsonb_array_elements(NEW.published->'pages') AS pp(p)
    CROSS JOIN LATERAL jsonb_array_elements(p->'sections') WITH ORDINALITY AS ss(s, si)
  ), gone AS (
    DELETE FROM published_section_digests d
    WHERE d.website_id = NEW.id AND NOT EXISTS (SELECT 1 FROM n WHERE n.section_id = d.section_id)
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
$$;
