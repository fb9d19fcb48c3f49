import type { Db } from '../db/client.ts';
import { newId } from '../lib/ids.ts';
import {
  insertGrades,
  selectCurrentGradesOfQuestion,
  selectGradedStudentIdsOfQuestion,
  type GradeRow,
  type NewGradeRow,
} from '../models/grades.ts';
import { answerLockKey, takeTransactionLock } from '../models/locks.ts';
import { insertRubricVersion, type RubricVersionRow } from '../models/rubric-versions.ts';
import { upsertRubric, type NewRubricRow, type RubricRow } from '../models/rubrics.ts';
import type { RubricItemChange } from '../models/rubric-versions.ts';
import { describeItemChanges, hasReapplicableChange, reappliedGrade, reapplyToComments } from './reapply-rubric.ts';

/** Rows per insert statement: 500 grades stay far below PostgreSQL's 65535 parameters. */
const INSERT_CHUNK = 500;

export interface RubricVersionWrite {
  rubric: RubricRow;
  version: RubricVersionRow;
  /** The grades the change re-applied to (new rows; the ones they replace are kept). */
  regraded: GradeRow[];
}

/**
 * The one way a rubric is written (an instructor's save, an AI draft): the question's current
 * rubric, a new version row saying who changed what, and — for a person's edit that changes an
 * item's points or wording — the re-application of the change to every saved grade tied to that
 * item, all in the caller's transaction, so either all of it is there or none (decision 0022).
 *
 * The caller holds the rubric's lock. Re-application takes the lock of every graded answer of the
 * question (in one order, so two writers never wait on each other) before reading the current
 * grades: a grade saved meanwhile is either seen and re-applied, or saved after this commits
 * (and then refused as stale by a screen that sends expectedGradeId).
 */
export async function writeRubricVersion(
  tx: Db,
  input: {
    question: { id: string; points: number };
    previous: RubricRow | undefined;
    rubric: NewRubricRow;
    /** The person who made the change; null for an AI draft nobody requested (never re-applied). */
    writtenById: string | null;
  },
): Promise<RubricVersionWrite> {
  const rubric = await upsertRubric(tx, input.rubric);
  const changes = describeItemChanges(input.previous?.items, rubric.items);
  const regraded =
    input.writtenById && hasReapplicableChange(changes)
      ? await reapplyToSavedGrades(tx, input.question, changes, rubric.version, input.writtenById)
      : [];
  const version = await insertRubricVersion(tx, {
    id: newId(),
    questionId: input.question.id,
    version: rubric.version,
    questionText: rubric.questionText,
    solutionText: rubric.solutionText,
    items: rubric.items,
    source: rubric.source,
    generationId: rubric.generationId,
    createdById: input.writtenById,
    changes,
    regradedCount: regraded.length,
  });
  return { rubric, version, regraded };
}

async function reapplyToSavedGrades(
  tx: Db,
  question: { id: string; points: number },
  changes: readonly RubricItemChange[],
  rubricVersion: number,
  writtenById: string,
): Promise<GradeRow[]> {
  const students = (await selectGradedStudentIdsOfQuestion(tx, question.id)).sort();
  for (const studentId of students) await takeTransactionLock(tx, answerLockKey(question.id, studentId));
  const current = await selectCurrentGradesOfQuestion(tx, question.id);
  const rows: NewGradeRow[] = [];
  for (const { grade } of current) {
    const { comments, changed } = reapplyToComments(grade.comments, changes);
    if (!changed) continue;
    rows.push({
      id: newId(),
      submissionId: grade.submissionId,
      grade: reappliedGrade(question.points, comments),
      feedback: grade.feedback,
      comments,
      // Still the same decision, started from the same AI suggestion (or group source).
      confidence: grade.confidence,
      gradingRunId: grade.gradingRunId,
      appliedFromGradeId: grade.appliedFromGradeId,
      savedById: writtenById,
      reason: 'rubric-change',
      rubricVersion,
      replacesGradeId: grade.id,
    });
  }
  const written: GradeRow[] = [];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    written.push(...(await insertGrades(tx, rows.slice(start, start + INSERT_CHUNK))));
  }
  return written;
}
