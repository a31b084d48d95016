CREATE INDEX "bookings_email_idx" ON "bookings" USING btree ("website_id",lower("customer_email"));--> statement-breakpoint
CREATE INDEX "contacts_email_idx" ON "contacts" USING btree ("website_id",lower("email"));--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("website_id",lower("email"));