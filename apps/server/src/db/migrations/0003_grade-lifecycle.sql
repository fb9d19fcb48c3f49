CREATE TABLE "submission_reopenings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"question_id" uuid NOT NULL,
	"student_id" uuid NOT NULL,
	"reopened_by_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "allows_resubmission" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rubrics" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "submission_reopenings" ADD CONSTRAINT "submission_reopenings_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_reopenings" ADD CONSTRAINT "submission_reopenings_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submission_reopenings" ADD CONSTRAINT "submission_reopenings_reopened_by_id_users_id_fk" FOREIGN KEY ("reopened_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submission_reopenings_question_student_idx" ON "submission_reopenings" USING btree ("question_id","student_id");