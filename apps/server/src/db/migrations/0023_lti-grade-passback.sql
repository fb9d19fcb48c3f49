-- LTI Assignment and Grade Services (issue 32, decision 0076): the LMS line item of each assignment
-- per linked LMS course, the score posts (work rows of the lti-score-post job), and when a launch
-- last synced the roster (launches sync it at most once an hour).
ALTER TABLE "lti_contexts" ADD COLUMN "roster_synced_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "lti_line_items" (
	"assignment_id" uuid NOT NULL,
	"context_id" uuid NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_line_items_assignment_id_context_id_pk" PRIMARY KEY("assignment_id","context_id")
);
--> statement-breakpoint
ALTER TABLE "lti_line_items" ADD CONSTRAINT "lti_line_items_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_line_items" ADD CONSTRAINT "lti_line_items_context_id_lti_contexts_id_fk" FOREIGN KEY ("context_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "lti_score_posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"context_id" uuid NOT NULL,
	"assignment_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"error_code" text,
	"platform_message" text,
	"score_given" double precision,
	"score_maximum" double precision,
	"grading_progress" text,
	"skipped" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lti_score_posts" ADD CONSTRAINT "lti_score_posts_context_id_lti_contexts_id_fk" FOREIGN KEY ("context_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_score_posts" ADD CONSTRAINT "lti_score_posts_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_score_posts" ADD CONSTRAINT "lti_score_posts_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lti_score_posts_assignment_idx" ON "lti_score_posts" USING btree ("assignment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_score_posts_one_queued_idx" ON "lti_score_posts" USING btree ("context_id","assignment_id","student_id") WHERE "lti_score_posts"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "lti_score_posts_one_running_idx" ON "lti_score_posts" USING btree ("context_id","assignment_id","student_id") WHERE "lti_score_posts"."status" = 'running';
