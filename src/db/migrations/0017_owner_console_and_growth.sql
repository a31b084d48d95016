CREATE TABLE "analytics_daily" (
	"website_id" text NOT NULL,
	"day" date NOT NULL,
	"dim" text NOT NULL,
	"key" text NOT NULL,
	"events" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "analytics_daily_website_id_day_dim_key_pk" PRIMARY KEY("website_id","day","dim","key")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup" (
	"id" integer PRIMARY KEY NOT NULL,
	"through" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "reply_to" text;--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_website_id_websites_id_fk" FOREIGN KEY ("website_id") REFERENCES "public"."websites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_daily_day_idx" ON "analytics_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "bookings_list_idx" ON "bookings" USING btree ("website_id",date_trunc('milliseconds', ("created_at" at time zone 'UTC')),"id");--> statement-breakpoint
CREATE INDEX "bookings_email_idx" ON "bookings" USING btree ("website_id",lower("customer_email"));--> statement-breakpoint
CREATE INDEX "contacts_list_idx" ON "contacts" USING btree ("website_id",date_trunc('milliseconds', ("created_at" at time zone 'UTC')),"id");--> statement-breakpoint
CREATE INDEX "contacts_email_idx" ON "contacts" USING btree ("website_id",lower("email"));--> statement-breakpoint
CREATE INDEX "leads_list_idx" ON "leads" USING btree ("website_id",date_trunc('milliseconds', ("created_at" at time zone 'UTC')),"id");--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("website_id",lower("email"));--> statement-breakpoint
CREATE INDEX "analytics_occurred_idx" ON "analytics_events" USING btree ("occurred_at");