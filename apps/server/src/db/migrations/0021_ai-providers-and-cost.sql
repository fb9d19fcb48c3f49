-- Issue 31: the provider each course grades with, its budget and confirmation amount; the provider
-- a run or draft was queued on; Stop on a Grade All batch; what each AI call cost; model checks.
ALTER TABLE "courses" ADD COLUMN "ai_provider_id" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "ai_server_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "ai_monthly_budget_micros" bigint;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "ai_confirm_above_micros" bigint;--> statement-breakpoint
ALTER TABLE "grading_runs" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "rubric_generations" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "grading_batches" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "grading_batches" ADD COLUMN "stopped_by_id" uuid;--> statement-breakpoint
ALTER TABLE "grading_batches" ADD CONSTRAINT "grading_batches_stopped_by_id_users_id_fk" FOREIGN KEY ("stopped_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "ai_costs" (
	"work_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"course_id" uuid NOT NULL,
	"instructor_id" uuid NOT NULL,
	"assignment_id" uuid,
	"question_id" uuid,
	"batch_id" uuid,
	"provider_id" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"rubric_items" integer,
	"cost_micros" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ai_costs_course_idx" ON "ai_costs" USING btree ("course_id","recorded_at");--> statement-breakpoint
CREATE INDEX "ai_costs_instructor_idx" ON "ai_costs" USING btree ("instructor_id","recorded_at");--> statement-breakpoint
CREATE INDEX "ai_costs_batch_idx" ON "ai_costs" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "ai_costs_provider_idx" ON "ai_costs" USING btree ("provider_id","recorded_at");--> statement-breakpoint
CREATE TABLE "ai_model_checks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"course_id" uuid NOT NULL,
	"requested_by_id" uuid,
	"candidate_provider_id" text NOT NULL,
	"current_provider_id" text NOT NULL,
	"sample_size" integer NOT NULL,
	"status" text NOT NULL,
	"result" jsonb,
	"cost_micros" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ai_model_checks" ADD CONSTRAINT "ai_model_checks_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_model_checks" ADD CONSTRAINT "ai_model_checks_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_model_checks_course_idx" ON "ai_model_checks" USING btree ("course_id","created_at");
