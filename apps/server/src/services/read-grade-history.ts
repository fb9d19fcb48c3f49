import type { GradeHistoryOutput, RubricVersionsOutput } from '@gradewise/shared/contracts/grade-audit';
import type { AppContext } from '../context.ts';
import { notFound } from '../lib/errors.ts';
import { isId } from '../lib/ids.ts';
import { selectGradeHistory } from '../models/grades.ts';
import { selectRubricVersions, type RubricItemChange } from '../models/rubric-versions.ts';
import { selectSubmissionInQuestion } from '../models/submissions.ts';
import { selectPeopleByIds, type UserRow } from '../models/users.ts';
import { loadVisibleQuestion, requireGrader } from '../policies/course-access.ts';
import { buildAuditEntries } from './grade-audit.ts';

/**
 * GET .../questions/:questionId/submissions/:submissionId/grade-history: every grade saved on the
 * submission, newest first, each with its audit record (the History panel of the grading screen).
 * Staff only: a student sees their grade through the report, never the AI's part in it.
 */
export async function readGradeHistory(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string; submissionId: string },
): Promise<GradeHistoryOutput> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see the history of its grades',
  );
  const submission = isId(params.submissionId)
    ? await selectSubmissionInQuestion(ctx.db, question.id, params.submissionId)
    : undefined;
  if (!submission) throw notFound('Submission not found.');
  const rows = (await selectGradeHistory(ctx.db, submission.id)).reverse();
  const entries = await buildAuditEntries(ctx, rows);
  return { submissionId: submission.id, questionPoints: question.points, entries: entries.reverse() };
}

/** GET .../questions/:questionId/rubric-versions: every version of the rubric, newest first. */
export async function readRubricVersions(
  ctx: AppContext,
  user: UserRow,
  params: { assignmentId: string; questionId: string },
): Promise<RubricVersionsOutput> {
  const { question } = requireGrader(
    await loadVisibleQuestion(ctx.db, user, params.assignmentId, params.questionId),
    'see the versions of its rubric',
  );
  const versions = await selectRubricVersions(ctx.db, question.id);
  const people = await selectPeopleByIds(
    ctx.db,
    versions.flatMap((version) => (version.createdById ? [version.createdById] : [])),
  );
  return {
    versions: versions.map((version) => {
      const author = version.createdById ? people.get(version.createdById) : undefined;
      return {
        version: version.version,
        source: version.source,
        createdBy: author ? { _id: author.id, name: author.name || 'Deleted account' } : null,
        createdAt: version.createdAt.toISOString(),
        items: version.items,
        changes: version.changes.map(describeItemChange),
        regradedCount: version.regradedCount,
      };
    }),
  };
}

export function describeItemChange(change: RubricItemChange): string {
  switch (change.kind) {
    case 'added':
      return `Added item "${change.to.criterion}" (${change.to.points} pts).`;
    case 'removed':
      return `Removed item "${change.from.criterion}" (${change.from.points} pts).`;
    case 'points':
      return `Item ${change.itemId}: points ${change.from} → ${change.to}.`;
    case 'wording':
      return `Item ${change.itemId}: wording "${change.from}" → "${change.to}".`;
    case 'guidance':
      return `Item ${change.itemId}: guidance changed.`;
  }
}
