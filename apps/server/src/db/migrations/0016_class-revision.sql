ALTER TABLE "questions" ADD COLUMN "class_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint

-- The question page caches each question's class order (its latest answer per student, sorted by
-- name or anonymous label) for one class_revision (decision 0058). Every change that can move that
-- order moves the revision, in the same transaction, whatever code path makes it: a submission
-- added, removed or moved, or a student who answered renamed.
CREATE FUNCTION "bump_class_revision_of_changed_submissions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "questions" SET "class_revision" = "class_revision" + 1
  WHERE "id" IN (SELECT "question_id" FROM "changed_submissions");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "submissions_added_bump_class_revision" AFTER INSERT ON "submissions"
  REFERENCING NEW TABLE AS "changed_submissions" FOR EACH STATEMENT
  EXECUTE FUNCTION "bump_class_revision_of_changed_submissions"();
--> statement-breakpoint
CREATE TRIGGER "submissions_removed_bump_class_revision" AFTER DELETE ON "submissions"
  REFERENCING OLD TABLE AS "changed_submissions" FOR EACH STATEMENT
  EXECUTE FUNCTION "bump_class_revision_of_changed_submissions"();
--> statement-breakpoint
CREATE FUNCTION "bump_class_revision_of_moved_submission"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "questions" SET "class_revision" = "class_revision" + 1
  WHERE "id" IN (OLD."question_id", NEW."question_id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "submissions_moved_bump_class_revision" AFTER UPDATE OF "question_id", "student_id", "version" ON "submissions"
  FOR EACH ROW EXECUTE FUNCTION "bump_class_revision_of_moved_submission"();
--> statement-breakpoint
CREATE FUNCTION "bump_class_revision_of_every_question"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "questions" SET "class_revision" = "class_revision" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "submissions_truncated_bump_class_revision" AFTER TRUNCATE ON "submissions"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_class_revision_of_every_question"();
--> statement-breakpoint
CREATE FUNCTION "bump_class_revision_of_renamed_student"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "questions" SET "class_revision" = "class_revision" + 1
  WHERE "id" IN (SELECT "question_id" FROM "submissions" WHERE "student_id" = NEW."id");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_renamed_bump_class_revision" AFTER UPDATE OF "name", "email" ON "users"
  FOR EACH ROW WHEN (OLD."name" IS DISTINCT FROM NEW."name" OR OLD."email" IS DISTINCT FROM NEW."email")
  EXECUTE FUNCTION "bump_class_revision_of_renamed_student"();
