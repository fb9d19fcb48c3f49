import type {
  AuditComment,
  CommentChange,
  GradeDiff,
  GradeHistoryEntry,
} from '@gradewise/shared/contracts/grade-audit';
import type { AppContext } from '../context.ts';
import type { GradeRow } from '../models/grades.ts';
import { selectGradingRunsByIds, type GradingRunListRow, type StoredComment } from '../models/grading-runs.ts';
import { selectPeopleByIds } from '../models/users.ts';

/**
 * The audit record of saved grades (decision 0022), built from rows that are never updated: each
 * save, group application and rubric re-application is its own `grades` row, linked to the AI run
 * it started from. One home for "what changed", so the History panel and the CSV say the same.
 */

interface GradeState {
  score: number;
  comments: readonly StoredComment[];
}

/** The difference between two states of a grade, comments matched by id (the AI run's ids are kept on save). */
export function diffGrades(from: GradeState, to: GradeState): GradeDiff {
  const before = new Map(from.comments.map((comment) => [comment.id, comment]));
  const changes: CommentChange[] = [];
  for (const comment of to.comments) {
    const old = before.get(comment.id);
    before.delete(comment.id);
    if (!old) {
      changes.push(change('added', comment.id, comment.rubricItemId, null, comment));
      continue;
    }
    if (old.text !== comment.text || old.pointsDeducted !== comment.pointsDeducted) {
      changes.push(change('edited', comment.id, comment.rubricItemId, old, comment));
    }
    if (old.accepted !== comment.accepted) {
      changes.push(change(comment.accepted ? 'accepted' : 'declined', comment.id, comment.rubricItemId, old, comment));
    }
  }
  for (const old of before.values()) changes.push(change('removed', old.id, old.rubricItemId, old, null));
  return {
    scoreFrom: from.score,
    scoreTo: to.score,
    comments: changes,
    summary: summarise(from.score, to.score, changes),
  };
}

function change(
  kind: CommentChange['kind'],
  commentId: string,
  rubricItemId: string | null,
  from: StoredComment | null,
  to: StoredComment | null,
): CommentChange {
  return {
    kind,
    commentId,
    rubricItemId,
    textFrom: from?.text ?? null,
    textTo: to?.text ?? null,
    pointsFrom: from?.pointsDeducted ?? null,
    pointsTo: to?.pointsDeducted ?? null,
  };
}

const QUOTE_MAX = 80;
const quote = (text: string | null) => {
  const compact = (text ?? '').replace(/\s+/g, ' ').trim();
  return `"${compact.length > QUOTE_MAX ? `${compact.slice(0, QUOTE_MAX - 1)}…` : compact}"`;
};
const pts = (value: number | null) => `${value ?? 0} pt${value === 1 ? '' : 's'}`;

function summarise(scoreFrom: number, scoreTo: number, changes: readonly CommentChange[]): string[] {
  const lines = [scoreFrom === scoreTo ? `Score unchanged (${scoreTo}).` : `Score ${scoreFrom} → ${scoreTo}.`];
  for (const item of changes) {
    switch (item.kind) {
      case 'added':
        lines.push(`Added ${quote(item.textTo)} (−${pts(item.pointsTo)}).`);
        break;
      case 'removed':
        lines.push(`Removed ${quote(item.textFrom)} (−${pts(item.pointsFrom)}).`);
        break;
      case 'accepted':
        lines.push(`Accepted ${quote(item.textTo)}.`);
        break;
      case 'declined':
        lines.push(`Declined ${quote(item.textTo)}.`);
        break;
      case 'edited': {
        const parts: string[] = [];
        if (item.textFrom !== item.textTo) parts.push(`text ${quote(item.textFrom)} → ${quote(item.textTo)}`);
        if (item.pointsFrom !== item.pointsTo) parts.push(`deduction ${pts(item.pointsFrom)} → ${pts(item.pointsTo)}`);
        lines.push(`Edited: ${parts.join('; ')}.`);
        break;
      }
    }
  }
  if (changes.length === 0) lines.push('Comments unchanged.');
  return lines;
}

export function toAuditComments(comments: readonly StoredComment[]): AuditComment[] {
  return comments.map((comment) => ({
    id: comment.id,
    text: comment.text,
    pointsDeducted: comment.pointsDeducted,
    accepted: comment.accepted,
    rubricItemId: comment.rubricItemId,
  }));
}

/**
 * The audit entries of one answer's grade rows, given oldest first; answered oldest first too.
 * Loads the AI runs and the people the rows name.
 */
export async function buildAuditEntries(ctx: AppContext, rows: readonly GradeRow[]): Promise<GradeHistoryEntry[]> {
  const runs = await selectGradingRunsByIds(ctx.db, [
    ...new Set(rows.flatMap((row) => (row.gradingRunId ? [row.gradingRunId] : []))),
  ]);
  const people = await selectPeopleByIds(
    ctx.db,
    rows.map((row) => row.savedById),
  );
  const newestBySubmission = new Map<string, GradeRow>();
  for (const row of rows) newestBySubmission.set(row.submissionId, row);
  const previousBySubmission = new Map<string, GradeRow>();
  return rows.map((row) => {
    const run = row.gradingRunId ? runs.get(row.gradingRunId) : undefined;
    const previous = previousBySubmission.get(row.submissionId);
    previousBySubmission.set(row.submissionId, row);
    const saver = people.get(row.savedById);
    const state = { score: row.grade, comments: row.comments };
    return {
      gradeId: row.id,
      reason: row.reason,
      grade: row.grade,
      comments: toAuditComments(row.comments),
      savedBy: { _id: row.savedById, name: saver?.name || 'Deleted account' },
      savedAt: row.createdAt.toISOString(),
      rubricVersion: row.rubricVersion,
      aiSuggestion: run ? presentSuggestion(run) : null,
      changesFromSuggestion: run ? diffGrades(suggestionState(run), state) : null,
      changesFromPrevious: previous ? diffGrades({ score: previous.grade, comments: previous.comments }, state) : null,
      appliedFromGradeId: row.appliedFromGradeId,
      replacesGradeId: row.replacesGradeId,
      isCurrent: newestBySubmission.get(row.submissionId) === row,
    };
  });
}

function suggestionState(run: GradingRunListRow): GradeState {
  return { score: run.totalScore ?? 0, comments: run.comments ?? [] };
}

function presentSuggestion(run: GradingRunListRow) {
  return {
    gradingRunId: run.id,
    score: run.totalScore,
    confidence: run.confidence,
    grader: { kind: run.graderKind, provider: run.provider, model: run.model },
    comments: toAuditComments(run.comments ?? []),
    suggestedAt: (run.finishedAt ?? run.createdAt).toISOString(),
  };
}
