ALTER TABLE "bookings" ADD COLUMN "source" text DEFAULT 'form' NOT NULL;--> statement-breakpoint
ALTER TABLE "websites" ADD COLUMN "visitor_agents" boolean DEFAULT true NOT NULL;