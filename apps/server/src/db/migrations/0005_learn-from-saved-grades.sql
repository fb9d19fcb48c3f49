CREATE TABLE "suggestion_refreshes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"question_id" uuid NOT NULL,
	"status" text NOT NULL,
	"examples_used" integer,
	"resuggested" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"error_code" text,
	"requested_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "grading_runs" ADD COLUMN "examples_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "suggestion_refreshes" ADD CONSTRAINT "suggestion_refreshes_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suggestion_refreshes" ADD CONSTRAINT "suggestion_refreshes_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "suggestion_refreshes_question_idx" ON "suggestion_refreshes" USING btree ("question_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "suggestion_refreshes_one_queued_idx" ON "suggestion_refreshes" USING btree ("question_id") WHERE "suggestion_refreshes"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "suggestion_refreshes_one_running_idx" ON "suggestion_refreshes" USING btree ("question_id") WHERE "suggestion_refreshes"."status" = 'running';