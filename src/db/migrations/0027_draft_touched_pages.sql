CREATE TABLE "draft_touched_pages" (
	"website_id" text NOT NULL,
	"page_id" text NOT NULL,
	CONSTRAINT "draft_touched_pages_website_id_page_id_pk" PRIMARY KEY("website_id","page_id")
);
--> statement-breakpoint
-- Every statement that inserts, updates or deletes pages or sections names the pages it touched (both
-- pages of a section moved between them): once per statement, from its transition tables.
CREATE FUNCTION sitegate_touch_section_pages() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT DISTINCT website_id, page_id FROM new_rows ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT website_id, page_id FROM new_rows UNION SELECT website_id, page_id FROM old_rows
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT DISTINCT website_id, page_id FROM old_rows ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION sitegate_touch_pages() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT website_id, id FROM new_rows ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT website_id, id FROM new_rows UNION SELECT website_id, id FROM old_rows
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO draft_touched_pages (website_id, page_id)
    SELECT website_id, id FROM old_rows ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sections_touch_insert AFTER INSERT ON sections REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_section_pages();--> statement-breakpoint
CREATE TRIGGER sections_touch_update AFTER UPDATE ON sections REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_section_pages();--> statement-breakpoint
CREATE TRIGGER sections_touch_delete AFTER DELETE ON sections REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_section_pages();--> statement-breakpoint
CREATE TRIGGER pages_touch_insert AFTER INSERT ON pages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_pages();--> statement-breakpoint
CREATE TRIGGER pages_touch_update AFTER UPDATE ON pages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_pages();--> statement-breakpoint
CREATE TRIGGER pages_touch_delete AFTER DELETE ON pages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION sitegate_touch_pages();--> statement-breakpoint
-- The pages of live sites whose draft differs from the live site now, found by comparing the two.
INSERT INTO draft_touched_pages (website_id, page_id)
SELECT x.website_id, x.page_id FROM (
  WITH d AS (
    SELECT id, website_id, page_id, type, hidden, digest,
           row_number() OVER (PARTITION BY page_id ORDER BY position) AS place
    FROM sections
  ), l AS (
    SELECT section_id, website_id, page_id, type, hidden, digest, position AS place
    FROM published_section_digests
  )
  SELECT coalesce(d.website_id, l.website_id) AS website_id, v.page_id
  FROM d FULL JOIN l ON l.website_id = d.website_id AND l.section_id = d.id,
  LATERAL (VALUES (d.page_id), (l.page_id)) AS v(page_id)
  WHERE (d.id IS NULL OR l.section_id IS NULL OR d.page_id <> l.page_id OR d.hidden <> l.hidden
         OR d.type <> l.type OR d.digest <> l.digest OR d.place <> l.place)
    AND v.page_id IS NOT NULL
  UNION
  SELECT coalesce(p.website_id, lp.website_id), coalesce(p.id, lp.page_id)
  FROM pages p FULL JOIN published_page_digests lp ON lp.website_id = p.website_id AND lp.page_id = p.id
  WHERE p.id IS NULL OR lp.page_id IS NULL OR p.slug <> lp.slug OR p.title <> lp.title OR p.kind <> lp.kind
     OR p.seo_title IS DISTINCT FROM lp.seo_title OR p.seo_description IS DISTINCT FROM lp.seo_description
     OR (lp.has_excerpt AND p.excerpt IS DISTINCT FROM lp.excerpt) OR p.created_at <> lp.created_at
  UNION
  -- Pages published before pages carried their excerpt and date: the next publish writes them whole.
  SELECT website_id, page_id FROM published_page_digests WHERE NOT has_excerpt OR created_at IS NULL
) x JOIN websites w ON w.id = x.website_id AND w.published_rev IS NOT NULL
ON CONFLICT DO NOTHING;
