CREATE TABLE "analytics_today" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"events" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "analytics_today_website_id_day_dim_key_pk" PRIMARY KEY("website_id","day","dim","key")
);
--> statement-breakpoint
ALTER TABLE "analytics_rollup" ADD COLUMN "provisional_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "analytics_today" ADD CONSTRAINT "analytics_today_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_visitor_idx" ON "analytics_events" USING btree ("website_id","visitor_hash","occurred_at");