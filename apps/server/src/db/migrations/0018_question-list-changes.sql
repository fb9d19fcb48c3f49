CREATE TABLE "question_list_changes" (
	"question_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"changes" bigint NOT NULL,
	CONSTRAINT "question_list_changes_question_id_slot_pk" PRIMARY KEY("question_id","slot")
);
--> statement-breakpoint
ALTER TABLE "question_list_changes" ADD CONSTRAINT "question_list_changes_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "submissions_file_idx" ON "submissions" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "submissions_uploaded_by_idx" ON "submissions" USING btree ("uploaded_by_id");--> statement-breakpoint

-- The server keeps each question's whole staff list (GET .../questions/:q?includeSubmissions=1,
-- serialised) for one revision: the sum of the question's question_list_changes rows (decision
-- 0065). Every change to a row that list reads adds one, in the same transaction, whatever code
-- makes it. A session adds to one of 16 rows per question, chosen by its backend's pid, so
-- concurrent writers (grading workers) rarely wait on one row, and the rows stay 16 at most however
-- often the pool reconnects. Questions deleted in the same transaction (cascades) are skipped.
CREATE FUNCTION "note_question_list_changes"("question_ids" uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Most statements that fire a trigger touch no listed answer (an update of no row, a question's
  -- own file read): nothing to write then. plpgsql keeps the statement's plan between calls.
  IF cardinality("question_ids") = 0 THEN
    RETURN;
  END IF;
  INSERT INTO "question_list_changes" ("question_id", "slot", "changes")
  SELECT "id", pg_backend_pid() % 16, 1 FROM "questions" WHERE "id" = ANY("question_ids")
  ON CONFLICT ("question_id", "slot") DO UPDATE SET "changes" = "question_list_changes"."changes" + 1;
END
$$;
--> statement-breakpoint
-- Rows that name their question. Statement triggers with the changed rows as "changed" (for an
-- update, the new rows; a moved submission is handled below).
CREATE FUNCTION "note_list_changes_by_question"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(SELECT DISTINCT "question_id" FROM "changed"));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Rows of a submission (grades, runs, leases).
CREATE FUNCTION "note_list_changes_by_submission"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(
    SELECT DISTINCT "submissions"."question_id" FROM "submissions"
    WHERE "submissions"."id" IN (SELECT "submission_id" FROM "changed")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A file's extracted text, shown on the answers stored in that file.
CREATE FUNCTION "note_list_changes_by_file"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(
    SELECT DISTINCT "submissions"."question_id" FROM "submissions"
    WHERE "submissions"."file_id" IN (SELECT "file_id" FROM "changed")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Course-wide rows (roster, staff, graders by student): every question of the course.
CREATE FUNCTION "note_list_changes_by_course"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(
    SELECT "questions"."id" FROM "questions"
    JOIN "assignments" ON "assignments"."id" = "questions"."assignment_id"
    WHERE "assignments"."course_id" IN (SELECT "course_id" FROM "changed")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Anonymous numbers: every question of the assignment.
CREATE FUNCTION "note_list_changes_by_assignment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(
    SELECT "questions"."id" FROM "questions"
    WHERE "questions"."assignment_id" IN (SELECT "assignment_id" FROM "changed")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Insert, update and delete on each table (a trigger with transition tables takes one event).
DO $$
DECLARE
  watched record;
BEGIN
  FOR watched IN SELECT * FROM (VALUES
    ('submissions', 'note_list_changes_by_question'),
    ('rubrics', 'note_list_changes_by_question'),
    ('submission_reopenings', 'note_list_changes_by_question'),
    ('question_graders', 'note_list_changes_by_question'),
    ('grades', 'note_list_changes_by_submission'),
    ('grading_runs', 'note_list_changes_by_submission'),
    ('grading_leases', 'note_list_changes_by_submission'),
    ('file_extractions', 'note_list_changes_by_file'),
    ('enrollments', 'note_list_changes_by_course'),
    ('course_staff', 'note_list_changes_by_course'),
    ('student_graders', 'note_list_changes_by_course'),
    ('anonymous_students', 'note_list_changes_by_assignment')
  ) AS list ("table_name", "function_name") LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_added_note_list_change', watched.table_name, watched.function_name);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_updated_note_list_change', watched.table_name, watched.function_name);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION %I()',
      watched.table_name || '_removed_note_list_change', watched.table_name, watched.function_name);
  END LOOP;
END
$$;
--> statement-breakpoint
-- A submission moved to another question (nothing does this today): its old question changes too.
CREATE FUNCTION "note_list_changes_of_moved_submission"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY[OLD."question_id"]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "submissions_moved_note_list_change" AFTER UPDATE OF "question_id" ON "submissions"
  FOR EACH ROW WHEN (OLD."question_id" IS DISTINCT FROM NEW."question_id")
  EXECUTE FUNCTION "note_list_changes_of_moved_submission"();
--> statement-breakpoint
-- A name or email shown on a list: a student who answered, whoever uploaded an answer, a grader,
-- whoever has an answer open, and anyone in the roster or staff of a course (the work split sorts
-- graders and the roster by name). Renames are rare; this reads each link by an index.
CREATE FUNCTION "note_list_changes_of_renamed_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "note_question_list_changes"(ARRAY(
    SELECT "question_id" FROM "submissions" WHERE "student_id" = NEW."id" OR "uploaded_by_id" = NEW."id"
    UNION SELECT "question_id" FROM "question_graders" WHERE "grader_id" = NEW."id"
    UNION SELECT "submissions"."question_id" FROM "grading_leases"
      JOIN "submissions" ON "submissions"."id" = "grading_leases"."submission_id"
      WHERE "grading_leases"."grader_id" = NEW."id"
    UNION SELECT "questions"."id" FROM "questions"
      JOIN "assignments" ON "assignments"."id" = "questions"."assignment_id"
      WHERE "assignments"."course_id" IN (
        SELECT "course_id" FROM "enrollments" WHERE "user_id" = NEW."id"
        UNION SELECT "course_id" FROM "course_staff" WHERE "user_id" = NEW."id"
        UNION SELECT "id" FROM "courses" WHERE "instructor_id" = NEW."id"
        UNION SELECT "course_id" FROM "student_graders" WHERE "grader_id" = NEW."id" OR "student_id" = NEW."id")));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_renamed_note_list_change" AFTER UPDATE OF "name", "email" ON "users"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "note_list_changes_of_renamed_user"();
