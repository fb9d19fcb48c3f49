import type { AnswerGroupsOutput } from '@gradewise/shared/contracts/answer-groups';
import type { GradeFirstState } from '@gradewise/shared/contracts/review';
import type { AppContext } from '../context.ts';
import {
  analyseAnswers,
  findScoreOutliers,
  groupAnswers,
  pickRepresentatives,
  type AnswerGroup,
  type Representative,
} from '../grouping/group-answers.ts';
import { selectFileExtractions, type FileExtractionRow } from '../models/file-extractions.ts';
import { selectCurrentGrades, selectSubmissionIdsOfGrades, type GradeRow } from '../models/grades.ts';
import {
  selectLatestRunsBySubmission,
  selectLatestSucceededRunsBySubmission,
  type GradingRunRow,
} from '../models/grading-runs.ts';
import { selectLatestSubmissionsPerStudent, type SubmissionListRow } from '../models/submissions.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireOwner } from '../policies/course-access.ts';
import { presentAnswerGroups } from '../presenters/answer-groups-presenter.ts';

/** The current answers of a question (latest version per student) with where each stands. */
export interface QuestionAnswers {
  /** By student name, as selectLatestSubmissionsPerStudent orders them: the input order of grouping. */
  rows: SubmissionListRow[];
  grades: Map<string, GradeRow>;
  latestRuns: Map<string, GradingRunRow>;
  succeededRuns: Map<string, GradingRunRow>;
  /** By file id. */
  extractions: Map<string, FileExtractionRow>;
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
  /** Members without a saved grade whose own suggestion is far from their group's score. */
  scoreOutliers: Set<string>;
  /** Current answers without readable text: not grouped, never grade-first. */
  withoutText: number;
}

/** Six set-based queries, whatever the class size. */
export async function loadQuestionAnswers(ctx: AppContext, questionId: string): Promise<QuestionAnswers> {
  const rows = await selectLatestSubmissionsPerStudent(ctx.db, questionId);
  const ids = rows.map((row) => row.submission.id);
  const [grades, latestRuns, succeededRuns, extractions] = await Promise.all([
    selectCurrentGrades(ctx.db, ids),
    selectLatestRunsBySubmission(ctx.db, ids),
    selectLatestSucceededRunsBySubmission(ctx.db, ids),
    selectFileExtractions(
      ctx.db,
      rows.map((row) => row.submission.fileId),
    ),
  ]);
  const sourceIds = [...grades.values()].map((grade) => grade.appliedFromGradeId).filter((id) => id !== null);
  const appliedFrom = await selectSubmissionIdsOfGrades(ctx.db, [...new Set(sourceIds)]);
  return { rows, grades, latestRuns, succeededRuns, extractions, appliedFrom };
}

/**
 * Groups the current answers by their extracted text and, while the instructor has saved fewer
 * than `target` grades of their own on them, picks the answers to grade first. Grades applied to a
 * group do not count: they repeat one decision and teach nothing new. Answers are read in a fixed
 * order (by student), so the result is the same on every call for the same answers.
 */
export function analyseQuestionAnswers(answers: QuestionAnswers, points: number, target: number): AnswerAnalysis {
  const texts = answers.rows.map((row) => {
    const extraction = answers.extractions.get(row.submission.fileId);
    return { id: row.submission.id, text: extraction?.status === 'succeeded' ? extraction.text : '' };
  });
  const space = analyseAnswers(texts);
  const groups = groupAnswers(space);
  const groupOf = new Map<string, AnswerGroup>();
  for (const group of groups) for (const member of group.members) groupOf.set(member.id, group);
  const scoreOutliers = new Set<string>();
  for (const group of groups) {
    const ids = group.members.map((member) => member.id);
    const scores = new Map(
      ids.map((id) => [
        id,
        {
          suggestedScore: answers.succeededRuns.get(id)?.totalScore ?? null,
          isGraded: answers.grades.has(id),
        },
      ]),
    );
    for (const id of findScoreOutliers(ids, scores, points)) scoreOutliers.add(id);
  }
  const ownGrades = [...answers.grades.values()].filter((grade) => grade.appliedFromGradeId === null).length;
  const isActive = target > 0 && ownGrades < target && space.answers.length > 0;
  return {
    groups,
    groupOf,
    gradeFirst: isActive ? pickRepresentatives(space, target) : [],
    gradeFirstState: { target, ownGrades, isActive },
    scoreOutliers,
    withoutText: texts.length - space.answers.length,
  };
}

/** GET answer-groups: the groups of alike answers of a question, with each member's standing and flags. */
export async function readAnswerGroups(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<AnswerGroupsOutput> {
  const { question } = requireOwner(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see its answer groups',
  );
  const answers = await loadQuestionAnswers(ctx, question.id);
  const analysis = analyseQuestionAnswers(answers, question.points, ctx.config.gradeFirstCount);
  return presentAnswerGroups(question.points, answers, analysis);
}
