-- Issue 27 (decision 0097): the built-in grader's chance that a suggestion is off by more than 40%
-- of the points, which the review queue orders by (most likely first). Null for runs of other
-- graders and of built-in versions before 3.4.0: those are ordered by their confidence.
ALTER TABLE "grading_runs" ADD COLUMN "miss_chance" double precision;
