CREATE TABLE "idempotency_keys" (
	"connection_id" text NOT NULL,
	"key" text NOT NULL,
	"tool" text NOT NULL,
	"fingerprint" text NOT NULL,
	"claim" text NOT NULL,
	"status" text NOT NULL,
	"result" text,
	"lease_until" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_connection_id_key_pk" PRIMARY KEY("connection_id","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");