ALTER TABLE "idempotency_keys" ADD COLUMN "website_id" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "targets" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "idempotency_keys_website_idx" ON "idempotency_keys" USING btree ("website_id");