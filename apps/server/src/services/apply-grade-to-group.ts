import type { ApplyToGroupInput, ApplyToGroupOutput } from '@gradewise/shared/contracts/answer-groups';
import { computeFinalGrade } from '@gradewise/shared/final-grade';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { insertGrades, selectGradedSubmissionIds, type NewGradeRow } from '../models/grades.ts';
import { selectRubricByQuestionId } from '../models/rubrics.ts';
import type { UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { analyseQuestionAnswers, loadQuestionAnswers } from './read-answer-groups.ts';
import { requestSuggestionRefresh } from './refresh-suggestions.ts';
import { requestScorePassback } from './lti-grade-passback.ts';

type Skipped = ApplyToGroupOutput['skipped'][number];

/**
 * POST answer-groups/apply: the instructor's saved grade of one answer becomes the saved grade of
 * the alike answers of its group that have none yet — the same comments (accepted and declined),
 * the same deductions, so the same grade. The instructor confirmed the list of members first (the
 * dialog sends it), and each applied grade is an ordinary saved grade: it opens in the grading
 * screen like any other and a later save replaces it. Answers that already have a saved grade
 * are never touched, whatever the request says.
 *
 * The graded check is repeated inside the transaction that writes, so a grade saved by hand
 * between the dialog and the click wins; a save racing the very same instant can still land
 * just before or after — grades are never updated, each save is a new row and the newest counts,
 * so nothing is lost either way.
 */
export async function applyGradeToGroup(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
  input: z.output<typeof ApplyToGroupInput>,
): Promise<ApplyToGroupOutput> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'grade its submissions',
  );
  const answers = await loadQuestionAnswers(ctx, question.id);
  // Only a current answer (the latest version of a student) can be a source: older versions are
  // neither grouped nor shown in the queue.
  if (!answers.rows.some((row) => row.submission.id === input.fromSubmissionId)) {
    throw notFound('Submission not found.');
  }
  const source = answers.grades.get(input.fromSubmissionId);
  if (!source) throw conflict('Save a grade on this answer first, then apply it to its group.');
  const analysis = await analyseQuestionAnswers(ctx, answers, question.points, ctx.config.gradeFirstCount);
  const group = analysis.groupOf.get(input.fromSubmissionId);
  if (!group) throw conflict('This answer is not in a group of alike answers any more.');

  const members = new Set(group.members.map((member) => member.id).filter((id) => id !== input.fromSubmissionId));
  const requested = [...new Set(input.submissionIds ?? [...members].filter((id) => !answers.grades.has(id)))].filter(
    (id) => id !== input.fromSubmissionId,
  );
  const skipped: Skipped[] = [];
  const candidates: string[] = [];
  for (const id of requested) {
    if (!members.has(id)) skipped.push({ submissionId: id, reason: 'not-in-group' });
    else if (answers.grades.has(id)) skipped.push({ submissionId: id, reason: 'already-graded' });
    else candidates.push(id);
  }

  const applied = await ctx.db.transaction(async (tx) => {
    const rubricVersion = (await selectRubricByQuestionId(tx, question.id))?.version;
    const gradedMeanwhile = await selectGradedSubmissionIds(tx, candidates);
    const rows: NewGradeRow[] = [];
    for (const submissionId of candidates) {
      if (gradedMeanwhile.has(submissionId)) {
        skipped.push({ submissionId, reason: 'already-graded' });
        continue;
      }
      const comments = source.comments.map((comment) => ({ ...comment, id: newId() }));
      const run = answers.succeededRuns.get(submissionId);
      rows.push({
        id: newId(),
        submissionId,
        grade: computeFinalGrade(question.points, comments),
        feedback: source.feedback,
        comments,
        // The member's own suggestion keeps its place in the review queue; the grade itself did
        // not come from that run (nor from any AI), so it is not linked to it.
        confidence: run?.confidence ?? null,
        gradingRunId: null,
        appliedFromGradeId: source.id,
        savedById: user.id,
        reason: 'group',
        rubricVersion: rubricVersion ?? null,
      });
    }
    return insertGrades(tx, rows);
  });

  // Applied grades are saved grades: the pending suggestions learn from them as after any save.
  if (applied.length > 0) await requestSuggestionRefresh(ctx, question.id, user.id);
  const appliedIds = new Set(applied.map((grade) => grade.submissionId));
  const studentIds = answers.rows
    .filter((row) => appliedIds.has(row.submission.id))
    .map((row) => row.submission.studentId);
  if (studentIds.length > 0) await requestScorePassback(ctx, question.assignmentId, studentIds);
  const count = applied.length;
  return {
    message:
      count === 0
        ? 'Nothing to apply: every chosen answer already has a grade.'
        : `Grade applied to ${count} alike ${count === 1 ? 'answer' : 'answers'}. Each stays open to review and change.`,
    applied: applied.map((grade) => ({ submissionId: grade.submissionId, grade: grade.grade })),
    skipped,
  };
}
