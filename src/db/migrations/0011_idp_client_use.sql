ALTER TABLE "oidc_models" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_models" ADD COLUMN "used_at" timestamp with time zone;