-- Issue 27, item 6 (decision 0088): a question's comments may state the expected answer only when
-- its instructor turns this on. Off by default, so every existing question keeps comments that say
-- what is missing without giving the answer away.
ALTER TABLE "questions" ADD COLUMN "show_expected_answer" boolean DEFAULT false NOT NULL;
