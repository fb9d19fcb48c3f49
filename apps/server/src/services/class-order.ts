import type { AppContext } from '../context.ts';
import { BoundedCache } from '../lib/bounded-cache.ts';
import { selectLatestAnswerKeys, type LatestAnswerKey } from '../models/submissions.ts';
import type { QuestionScope } from '../policies/course-access.ts';
import { isAnonymousNow, readStudentIdentities, type StudentIdentities } from './anonymous-grading.ts';

/**
 * The order of a question's class as staff lists show it: the latest answer of every student who
 * answered, sorted by name (or by anonymous label), with the identities that sorted them. A page of
 * the question page needs the whole order to know which 25 rows are its own, yet the order only
 * changes when a submission is added or a student who answered is renamed. So it is kept per
 * question for one `classRevision` of the question row, which triggers in the database move in the
 * same transaction as any such change (migration 0016, decision 0058); the question row is read
 * for authorization on every request anyway, so knowing whether the kept order still holds costs
 * nothing. Each process keeps its own; on a shared PostgreSQL every process reads the same revision.
 */
export interface ClassOrder {
  /** In the order staff lists use. */
  keys: readonly LatestAnswerKey[];
  identities: StudentIdentities;
}

/** Enough for every question being graded at once on one server; beyond it, the least recently used goes. */
const MAX_QUESTIONS = 100;

interface Kept {
  revision: number;
  isAnonymous: boolean;
  order: ClassOrder;
}

/** One store per application context (a process has one; each test app its own). */
const kept = new WeakMap<AppContext, BoundedCache<string, Kept>>();

function keptOf(ctx: AppContext): BoundedCache<string, Kept> {
  let map = kept.get(ctx);
  if (!map) kept.set(ctx, (map = new BoundedCache(MAX_QUESTIONS)));
  return map;
}

export async function readClassOrder(ctx: AppContext, scope: QuestionScope): Promise<ClassOrder> {
  const { assignment, question } = scope;
  const isAnonymous = isAnonymousNow(assignment);
  const store = keptOf(ctx);
  const known = store.get(question.id);
  if (known && known.revision === question.classRevision && known.isAnonymous === isAnonymous) {
    // Set again, it is the newest: the least recently used question is the one dropped.
    store.set(question.id, known);
    return known.order;
  }
  // Read after the question row: these keys are at least as new as its revision, never older, so
  // keeping them under it never serves an order older than a later reader's revision.
  const keys = await selectLatestAnswerKeys(ctx.db, question.id);
  const identities = await readStudentIdentities(
    ctx,
    assignment,
    keys.map((key) => key.student.id),
  );
  const order = { keys: keys.sort((a, b) => identities.compare(a.student, b.student)), identities };
  store.set(question.id, { revision: question.classRevision, isAnonymous, order });
  return order;
}
