-- Issue 31, item 5 (decision 0077): a model check runs as a durable job. Its row counts its starts
-- (a check started too often is given up, like a grading run) and keeps the failure's code; each
-- answer of its sample is a row, written as each provider answers, so a retried job never pays
-- twice for an answer and the progress is a count of these rows.
ALTER TABLE "ai_model_checks" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_model_checks" ADD COLUMN "error_code" text;--> statement-breakpoint
CREATE TABLE "ai_model_check_answers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"check_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"submission_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"saved_score" double precision NOT NULL,
	"saved_comments" jsonb NOT NULL,
	"current_work_id" uuid NOT NULL,
	"candidate" jsonb,
	"current" jsonb
);
--> statement-breakpoint
ALTER TABLE "ai_model_check_answers" ADD CONSTRAINT "ai_model_check_answers_check_id_ai_model_checks_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."ai_model_checks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ai_model_check_answers_position_idx" ON "ai_model_check_answers" USING btree ("check_id","position");
