CREATE TABLE "published_page_digests" (
	"website_id" text NOT NULL,
	"page_id" text NOT NULL,
	"position" integer NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"kind" text NOT NULL,
	"excerpt" text,
	"has_excerpt" boolean NOT NULL,
	"seo_title" text,
	"seo_description" text,
	CONSTRAINT "published_page_digests_website_id_page_id_pk" PRIMARY KEY("website_id","page_id")
);
--> statement-breakpoint
CREATE TABLE "published_section_digests" (
	"website_id" text NOT NULL,
	"section_id" text NOT NULL,
	"page_id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"hidden" boolean NOT NULL,
	"digest" text NOT NULL,
	CONSTRAINT "published_section_digests_website_id_section_id_pk" PRIMARY KEY("website_id","section_id")
);
--> statement-breakpoint
ALTER TABLE "published_page_digests" ADD CONSTRAINT "published_page_digests_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "published_section_digests" ADD CONSTRAINT "published_section_digests_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- A website's rows above are rebuilt from its snapshot whenever the snapshot is written (publish,
-- unpublish, deletion, or any other writer): the digest of a section as sections.digest computes it,
-- pages and sections numbered in the snapshot's order.
CREATE OR REPLACE FUNCTION sitegate_published_digests() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM published_section_digests WHERE website_id = NEW.id;
  DELETE FROM published_page_digests WHERE website_id = NEW.id;
  IF NEW.published IS NOT NULL THEN
    INSERT INTO published_page_digests
      (website_id, page_id, position, slug, title, kind, excerpt, has_excerpt, seo_title, seo_description)
    SELECT NEW.id, p->>'id', pi, p->>'slug', p->>'title', p->>'kind', p->>'excerpt', p ? 'excerpt',
           p->>'seoTitle', p->>'seoDescription'
    FROM jsonb_array_elements(NEW.published->'pages') WITH ORDINALITY AS pp(p, pi);
    INSERT INTO published_section_digests (website_id, section_id, page_id, position, type, hidden, digest)
    SELECT NEW.id, s->>'id', p->>'id', si, coalesce(s->>'type', ''), coalesce((s->>'hidden')::boolean, false),
           md5(coalesce(s->'content', 'null'::jsonb)::text || '|' || coalesce(s->'layout', 'null'::jsonb)::text)
    FROM jsonb_array_elements(NEW.published->'pages') AS pp(p)
    CROSS JOIN LATERAL jsonb_array_elements(p->'sections') WITH ORDINALITY AS ss(s, si);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER websites_published_digests AFTER INSERT OR UPDATE OF published ON websites
  FOR EACH ROW EXECUTE FUNCTION sitegate_published_digests();--> statement-breakpoint
-- The sites live before this migration.
UPDATE websites SET published = published WHERE published IS NOT NULL;
