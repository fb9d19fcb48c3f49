import type { CourseGrade, GradedExample, Grader, GradingInput, RubricItem } from '../ai/grader-types.ts';
import { COURSE_GRADES_MAX, COURSE_GRADES_PER_QUESTION } from '../ai/builtin/course-convention.ts';
import { CLASS_ANSWERS_MAX } from '../ai/builtin/grade-answer.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../lib/errors.ts';
import { selectClassAnswerTexts } from '../models/class-answers.ts';
import { selectCourseGrades } from '../models/course-grades.ts';
import type { FileExtractionRow } from '../models/file-extractions.ts';
import { selectSavedGradeExamples, type SavedGradeExample } from '../models/graded-examples.ts';
import type { QuestionRow } from '../models/questions.ts';
import type { RubricRow } from '../models/rubrics.ts';
import type { SubmissionRow } from '../models/submissions.ts';
import { ensureFileExtraction } from './ensure-file-extraction.ts';

/**
 * What every grading path reads for one answer (the grading job, the refresh after a save, the
 * model check, the spend estimate): the rubric, the answer's text, the saved grades it learns from
 * and, for the built-in grader, the class and the course's grades on its other questions. Kept
 * apart from the grading job so the refresh, which the job asks for, does not import the job.
 */

/**
 * What a grader reads for one answer: the rubric, the answer's extracted text (extracted once per
 * file and stored), and the question's saved grades on other students' answers as examples.
 */
export async function buildGradingInput(
  ctx: AppContext,
  target: {
    submission: SubmissionRow;
    question: QuestionRow;
    rubric: Pick<RubricRow, 'questionText' | 'solutionText' | 'items'>;
    savedGrades: readonly SavedGradeExample[];
  },
): Promise<{ input: GradingInput; extraction: FileExtractionRow }> {
  const { submission, question, rubric } = target;
  const extraction = await ensureFileExtraction(ctx, submission.fileId);
  if (extraction.status === 'failed') {
    throw new AppError('EXTRACTION_FAILED', extraction.error ?? 'The text of this PDF could not be read.');
  }
  const input: GradingInput = {
    questionText: rubric.questionText,
    solutionText: rubric.solutionText,
    rubricItems: rubric.items.length > 0 ? rubric.items : [wholeQuestionItem(question.points)],
    points: question.points,
    answerText: extraction.text,
    examples: examplesFor(target.savedGrades, submission.studentId),
    showExpectedAnswer: question.showExpectedAnswer,
  };
  return { input, extraction };
}

/**
 * The class's current answers, for the grader that reads them: the built-in grader weighs how
 * typical an answer is of its class (class-closeness.ts, decision 0093). LLM graders are not sent
 * other students' answers.
 */
export async function classAnswersFor(
  ctx: AppContext,
  grader: Pick<Grader, 'kind'>,
  questionId: string,
): Promise<string[] | undefined> {
  return grader.kind === 'builtin' ? selectClassAnswerTexts(ctx.db, questionId, CLASS_ANSWERS_MAX) : undefined;
}

/**
 * The course's saved grades on its other questions, for the grader that reads them: before the
 * first saved grade on a question, the built-in grader moves its cold suggestions by the course's
 * convention fitted on these (decision 0115). LLM graders are not sent them. One read for all the
 * answers of a job: the grader fits the convention once per list it is given.
 */
export async function courseGradesFor(
  ctx: AppContext,
  grader: Pick<Grader, 'kind'>,
  questionId: string,
): Promise<CourseGrade[] | undefined> {
  return grader.kind === 'builtin'
    ? selectCourseGrades(ctx.db, questionId, { perQuestion: COURSE_GRADES_PER_QUESTION, max: COURSE_GRADES_MAX })
    : undefined;
}

/**
 * The question's saved grades with their answers' text. A grade saved without an AI run may
 * point at an answer never extracted: it is extracted now (once, stored and reused); one that
 * cannot be read is left out.
 */
export async function readSavedGradeExamples(ctx: AppContext, questionId: string): Promise<SavedGradeExample[]> {
  const saved = await selectSavedGradeExamples(ctx.db, questionId);
  const examples: SavedGradeExample[] = [];
  for (const example of saved) {
    if (example.answerText !== null) {
      examples.push(example);
      continue;
    }
    const extraction = await ensureFileExtraction(ctx, example.fileId).catch((error: unknown) => {
      ctx.log.warn({ err: error, fileId: example.fileId }, 'could not read a graded answer to learn from');
      return undefined;
    });
    if (extraction?.status === 'succeeded') examples.push({ ...example, answerText: extraction.text });
  }
  return examples;
}

/**
 * The saved grades a grader learns from: every other student's current graded answer. The
 * student's own answers are left out — a regrade of a graded answer never sees its own grade,
 * and an older version is never graded from the student's newer one.
 */
export function examplesFor(savedGrades: readonly SavedGradeExample[], studentId: string): GradedExample[] {
  return savedGrades.flatMap((saved) =>
    saved.studentId === studentId || saved.answerText === null
      ? []
      : [
          {
            answerText: saved.answerText,
            score: saved.score,
            comments: saved.comments
              .filter((comment) => comment.accepted)
              .map(({ text, pointsDeducted, rubricItemId }) => ({ text, pointsDeducted, rubricItemId })),
            suggestedScore: saved.suggestedScore,
          },
        ],
  );
}

/**
 * A rubric saved with texts only has no items; graders need at least one criterion, or any answer
 * would keep every point. The whole question becomes one item (the LLM grader does the same).
 */
function wholeQuestionItem(points: number): RubricItem {
  return {
    id: 'overall',
    criterion: 'Answers the whole question correctly, as in the solution.',
    points,
    guidance: 'Deduct in proportion to what is missing or wrong compared with the solution.',
  };
}
