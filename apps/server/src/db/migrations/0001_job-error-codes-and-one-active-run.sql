ALTER TABLE "grading_runs" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "rubric_generations" ADD COLUMN "error_code" text;--> statement-breakpoint
CREATE UNIQUE INDEX "grading_runs_one_active_idx" ON "grading_runs" USING btree ("submission_id") WHERE "grading_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "rubric_generations_one_active_idx" ON "rubric_generations" USING btree ("question_id") WHERE "rubric_generations"."status" in ('queued', 'running');