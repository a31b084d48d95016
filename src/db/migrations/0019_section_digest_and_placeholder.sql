-- Whether a section's content holds add_section's placeholder text in any string (trimmed), for the
-- generated column below. The texts are PLACEHOLDER's in src/domain/sections/placeholders.ts
-- (test/db/section-columns.test.ts checks both agree).
CREATE OR REPLACE FUNCTION sitegate_has_placeholder(content jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select exists (
    select 1 from jsonb_path_query(content, '$.** ? (@.type() == "string")') v
    where btrim(v #>> '{}') in ('New heading', 'New text.', 'New call to action', 'New post.'))
$$;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "digest" text GENERATED ALWAYS AS (md5(content::text || '|' || layout::text)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "placeholder" boolean GENERATED ALWAYS AS (sitegate_has_placeholder(content)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "sections_placeholder_idx" ON "sections" USING btree ("website_id") WHERE placeholder;