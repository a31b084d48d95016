ALTER TABLE "pairings" ADD COLUMN "oauth_issuer" text;--> statement-breakpoint
ALTER TABLE "pairings" ADD COLUMN "oauth_subject" text;--> statement-breakpoint
ALTER TABLE "pairings" ADD COLUMN "oauth_client_id" text;