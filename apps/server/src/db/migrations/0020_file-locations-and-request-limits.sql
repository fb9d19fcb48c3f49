-- Several machines (issue 30, decision 0071): each file row says where its blob lives (local disk
-- or the S3-compatible bucket), so `npm run files:to-s3` can move files while the app runs and
-- switch each row only after its copy is verified.
ALTER TABLE "files" ADD COLUMN "location" text DEFAULT 'local' NOT NULL;
--> statement-breakpoint
-- The per-client request limits (sign-in, registration, password reset) in the database, so every
-- API process counts against one window per client and route (services/request-limits.ts).
CREATE TABLE "request_limit_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"resets_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_limit_counters_resets_at_idx" ON "request_limit_counters" USING btree ("resets_at");
