ALTER TABLE "file_extractions" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "file_extractions" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
-- Rows stored before this migration were written when their read finished.
UPDATE "file_extractions" SET "finished_at" = "created_at" WHERE "finished_at" IS NULL;
--> statement-breakpoint
-- Submissions stored before extraction started at submission get their text read too: queued
-- here, their extract-text jobs are sent by the boot sweep (jobs/job-queue.ts).
INSERT INTO "file_extractions" ("file_id", "status") SELECT DISTINCT "submissions"."file_id", 'queued' FROM "submissions" WHERE NOT EXISTS (SELECT 1 FROM "file_extractions" WHERE "file_extractions"."file_id" = "submissions"."file_id") ON CONFLICT DO NOTHING;
