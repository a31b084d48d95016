-- The live site is kept a row per page (published_page_digests.page) instead of one JSON value per
-- website: a publish writes the rows of the pages that changed alone (src/domain/sites/publish.ts), so
-- the trigger that derived the digests from the whole value goes with the value.
ALTER TABLE "published_page_digests" ADD COLUMN "created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "published_page_digests" ADD COLUMN "page" jsonb;--> statement-breakpoint
UPDATE published_page_digests d SET page = p, digest = md5(p::text)
FROM websites w CROSS JOIN LATERAL jsonb_array_elements(w.published->'pages') AS pp(p)
WHERE w.id = d.website_id AND p->>'id' = d.page_id;--> statement-breakpoint
-- A page's creation time never changes: the draft's, for the pages whose snapshot recorded one.
UPDATE published_page_digests d SET created_at = p.created_at
FROM pages p WHERE p.id = d.page_id AND d.page ? 'createdAt';--> statement-breakpoint
DELETE FROM published_section_digests s
WHERE NOT EXISTS (SELECT 1 FROM published_page_digests d
                  WHERE d.website_id = s.website_id AND d.page_id = s.page_id AND d.page IS NOT NULL);--> statement-breakpoint
DELETE FROM published_page_digests WHERE page IS NULL;--> statement-breakpoint
ALTER TABLE "published_page_digests" ALTER COLUMN "page" SET NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS websites_published_digests ON websites;--> statement-breakpoint
DROP FUNCTION IF EXISTS sitegate_published_digests();--> statement-breakpoint
ALTER TABLE "websites" DROP COLUMN "published";
