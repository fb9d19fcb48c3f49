ALTER TABLE "assignments" ADD COLUMN "grades_held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "grades_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "regrade_window_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "regrade_request_limit" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "grades_held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "grades_released_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "regrade_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"assignment_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"submission_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"grade_id" uuid,
	"rubric_item_id" text,
	"item_key" text NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"reply" text,
	"resolved_by_id" uuid,
	"resolved_at" timestamp with time zone,
	"resolved_grade_id" uuid,
	"ai_recheck" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_grade_id_grades_id_fk" FOREIGN KEY ("grade_id") REFERENCES "public"."grades"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_resolved_grade_id_grades_id_fk" FOREIGN KEY ("resolved_grade_id") REFERENCES "public"."grades"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "regrade_requests_assignment_student_idx" ON "regrade_requests" USING btree ("assignment_id","student_id");--> statement-breakpoint
CREATE INDEX "regrade_requests_question_status_idx" ON "regrade_requests" USING btree ("question_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "regrade_requests_one_open_idx" ON "regrade_requests" USING btree ("question_id","student_id","item_key") WHERE "regrade_requests"."status" = 'open';
