CREATE TABLE "rubric_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"question_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"question_text" text NOT NULL,
	"solution_text" text NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source" text NOT NULL,
	"generation_id" uuid,
	"created_by_id" uuid,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"regraded_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rubric_versions" ADD CONSTRAINT "rubric_versions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_versions" ADD CONSTRAINT "rubric_versions_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rubric_versions_question_version_idx" ON "rubric_versions" USING btree ("question_id","version");--> statement-breakpoint
-- Every rubric that exists today becomes the first recorded version of its question.
INSERT INTO "rubric_versions" ("id", "question_id", "version", "question_text", "solution_text", "items", "source", "generation_id", "created_by_id", "created_at")
	SELECT gen_random_uuid(), "question_id", "version", "question_text", "solution_text", "items", "source", "generation_id", "updated_by_id", "updated_at" FROM "rubrics";--> statement-breakpoint
ALTER TABLE "grades" ADD COLUMN "reason" text DEFAULT 'save' NOT NULL;--> statement-breakpoint
UPDATE "grades" SET "reason" = 'group' WHERE "applied_from_grade_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "grades" ADD COLUMN "rubric_version" integer;--> statement-breakpoint
ALTER TABLE "grades" ADD COLUMN "replaces_grade_id" uuid;--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_replaces_grade_id_grades_id_fk" FOREIGN KEY ("replaces_grade_id") REFERENCES "public"."grades"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The time of the insert itself, not of its transaction's start: a save that waited for a lock
-- held by a rubric change is then newer than the rows that change wrote, as it really is.
ALTER TABLE "grades" ALTER COLUMN "created_at" SET DEFAULT clock_timestamp();
