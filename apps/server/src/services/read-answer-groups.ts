import type { GradeFirstState } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';
import {
  analyseAnswers,
  findScoreOutliers,
  groupAnswers,
  pickRepresentatives,
  type AnswerGroup,
  type Representative,
} from '../grouping/group-answers.ts';
import { selectExtractedTexts, selectExtractionStatuses, type FileExtractionRow } from '../models/file-extractions.ts';
import { selectCurrentGrades, selectSubmissionIdsOfGrades, type GradeRow } from '../models/grades.ts';
import {
  selectLatestRunsBySubmission,
  selectLatestSucceededRunsBySubmission,
  type GradingRunListRow,
} from '../models/grading-runs.ts';
import { selectLatestSubmissionsPerStudent, type SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';

/** The current answers of a question (latest version per student) with where each stands. */
export interface QuestionAnswers {
  questionId: string;
  /** By student name, as selectLatestSubmissionsPerStudent orders them: the input order of grouping. */
  rows: SubmissionListRow[];
  grades: Map<string, GradeRow>;
  latestRuns: Map<string, GradingRunListRow>;
  succeededRuns: Map<string, GradingRunListRow>;
  /** File id -> whether its text was read ('succeeded') or could not be ('failed'); absent: not read yet. */
  extractionStatuses: Map<string, FileExtractionRow['status']>;
  /** Grade id -> submission id of every grade a current grade was applied from. */
  appliedFrom: Map<string, string>;
}

export interface AnswerAnalysis {
  /** Groups of two or more alike answers, biggest first. */
  groups: AnswerGroup[];
  /** submission id -> its group. */
  groupOf: Map<string, AnswerGroup>;
  /** The answers to grade first, best first; empty when grade-first is not active. */
  gradeFirst: Representative[];
  gradeFirstState: GradeFirstState;
  /** Members without a saved grade whose own suggestion is far from their group's. */
  scoreOutliers: Set<string>;
  /** Current answers without readable text: not grouped, never grade-first. */
  withoutText: number;
}

/** Six set-based queries, whatever the class size; the answers' texts are read only when needed. */
export async function loadQuestionAnswers(ctx: AppContext, questionId: string): Promise<QuestionAnswers> {
  const rows = await selectLatestSubmissionsPerStudent(ctx.db, questionId);
  const ids = rows.map((row) => row.submission.id);
  const [grades, latestRuns, succeededRuns, extractionStatuses] = await Promise.all([
    selectCurrentGrades(ctx.db, ids),
    selectLatestRunsBySubmission(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
    selectExtractionStatuses(
      ctx.db,
      rows.map((row) => row.submission.fileId),
    ),
  ]);
  const sourceIds = [...grades.values()].map((grade) => grade.appliedFromGradeId).filter((id) => id !== null);
  const appliedFrom = await selectSubmissionIdsOfGrades(ctx.db, [...new Set(sourceIds)]);
  return { questionId, rows, grades, latestRuns, succeededRuns, extractionStatuses, appliedFrom };
}

interface TextAnalysis {
  fingerprint: string;
  groups: AnswerGroup[];
  representatives: Representative[];
  withText: number;
}

/**
 * Grouping is O(n²) over the class and depends only on which answers are current, on their
 * texts and on their authors' names (left out of the comparison) — and an extracted text never changes (one row per file, never updated). So the result is
 * kept per question, keyed by that list, and recomputed only when an answer is added, replaced or
 * read. Process-local and small (groups and picks only); every process computes the same result.
 */
const TEXT_ANALYSES_KEPT = 64;
const textAnalyses = new BoundedCache<string, TextAnalysis>(TEXT_ANALYSES_KEPT);

function savedShareOf(grade: GradeRow | undefined, points: number): number | null {
  return grade && points > 0 ? grade.grade / points : null;
}

async function analyseTexts(
  ctx: AppContext,
  answers: QuestionAnswers,
  points: number,
  target: number,
): Promise<TextAnalysis> {
  const fingerprint = `${target}|${points}|${answers.rows
    .map(
      (row) =>
        `${row.submission.id}:${row.submission.fileId}:${answers.extractionStatuses.get(row.submission.fileId) ?? '-'}:${row.student.name}:${row.student.email}:${answers.grades.get(row.submission.id)?.grade ?? '-'}`,
    )
    .join(',')}`;
  const cached = textAnalyses.get(answers.questionId);
  if (cached?.fingerprint === fingerprint) {
    // Set again, it is the newest: the least recently used question is the one dropped.
    textAnalyses.set(answers.questionId, cached);
    return cached;
  }
  const readFiles = answers.rows
    .map((row) => row.submission.fileId)
    .filter((fileId) => answers.extractionStatuses.get(fileId) === 'succeeded');
  const texts = await selectExtractedTexts(ctx.db, readFiles);
  const space = analyseAnswers(
    answers.rows.map((row) => ({
      id: row.submission.id,
      text: texts.get(row.submission.fileId) ?? '',
      // A name or email in the header says nothing about the answer.
      ownWords: [row.student.name, row.student.email],
      savedShare: savedShareOf(answers.grades.get(row.submission.id), points),
    })),
  );
  const analysis: TextAnalysis = {
    fingerprint,
    groups: groupAnswers(space),
    representatives: pickRepresentatives(space, target),
    withText: space.answers.length,
  };
  textAnalyses.set(answers.questionId, analysis);
  return analysis;
}

/**
 * Groups the current answers by their extracted text and, while the instructor has saved fewer
 * than `target` grades of their own on them, picks the answers to grade first. Grades applied to a
 * group do not count: they repeat one decision and teach nothing new. Answers are read in a fixed
 * order (by student), so the result is the same on every call for the same answers.
 */
export async function analyseQuestionAnswers(
  ctx: AppContext,
  answers: QuestionAnswers,
  points: number,
  target: number,
): Promise<AnswerAnalysis> {
  const { groups, representatives, withText } = await analyseTexts(ctx, answers, points, target);
  const groupOf = new Map<string, AnswerGroup>();
  for (const group of groups) for (const member of group.members) groupOf.set(member.id, group);
  const scoreOutliers = new Set<string>();
  for (const group of groups) {
    const ids = group.members.map((member) => member.id);
    const scores = new Map(
      ids.map((id) => [
        id,
        { suggestedScore: answers.succeededRuns.get(id)?.totalScore ?? null, isGraded: answers.grades.has(id) },
      ]),
    );
    for (const id of findScoreOutliers(ids, scores, points)) scoreOutliers.add(id);
  }
  const ownGrades = [...answers.grades.values()].filter((grade) => grade.appliedFromGradeId === null).length;
  const isActive = target > 0 && ownGrades < target && withText > 0;
  return {
    groups,
    groupOf,
    gradeFirst: isActive ? representatives : [],
    gradeFirstState: { target, ownGrades, isActive },
    scoreOutliers,
    withoutText: answers.rows.length - withText,
  };
}

/** A question's answers and their analysis, as read; presenters/answer-groups-presenter.ts presents them. */
export interface AnswerGroupsView {
  questionPoints: number;
  answers: QuestionAnswers;
  analysis: AnswerAnalysis;
  identities: StudentIdentities;
}

/** GET answer-groups: the groups of alike answers of a question, with each member's standing and flags. */
export async function readAnswerGroups(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<AnswerGroupsView> {
  const { assignment, question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see its answer groups',
  );
  const answers = await loadQuestionAnswers(ctx, question.id);
  const analysis = await analyseQuestionAnswers(ctx, answers, question.points, ctx.config.gradeFirstCount);
  const identities = await readStudentIdentities(
    ctx,
    assignment,
    answers.rows.map((row) => row.student.id),
  );
  return { questionPoints: question.points, answers, analysis, identities };
}
