import type { AppContext } from '../context.ts';
import { currentTime } from '../lib/clock.ts';
import { selectQuestionListRevision } from '../models/question-list-changes.ts';
import type { UserRow } from '../models/users.ts';
import type { QuestionScope } from '../policies/course-access.ts';

/**
 * The whole staff list of a question (GET .../questions/:q?includeSubmissions=1 as staff), kept
 * serialised between changes (decision 0065). Reading and shaping hundreds of answers costs
 * far more than sending them, yet between two changes every reader gets the same bytes.
 *
 * An answer is kept for exactly what it was made from:
 * - the question's list revision, which triggers in the database move in the same transaction as
 *   any change to a row the list reads (migration 0018), whatever code makes it;
 * - the question, assignment and course rows and the viewer's role (`scope`), read for
 *   authorization on every request, so a renamed question or a TA's new role shows at once;
 * - the viewer (whose share each answer is);
 * - the expiry of the file links it holds, which moves every few minutes (storage/file-url-signer.ts);
 * - until the first shown lease lapses, since an answer stops being open with no write.
 *
 * The revision is read before the list: what is then read is at least as new as it, so bytes kept
 * under a revision are never older than that revision. Each process keeps its own; on a shared
 * PostgreSQL every process reads the same revision.
 */

/** About a hundred lists of 300 answers; beyond it, the least recently used go first. */
const MAX_BYTES = 64 * 1024 * 1024;

interface Kept {
  stamp: string;
  body: Buffer;
  /** Epoch milliseconds after which the body may be wrong with no write (a lease lapsed). */
  until: number;
}

interface Store {
  lists: Map<string, Kept>;
  bytes: number;
}

/** One store per application context (a process has one; each test app its own). */
const stores = new WeakMap<AppContext, Store>();

function storeOf(ctx: AppContext): Store {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = { lists: new Map(), bytes: 0 }));
  return store;
}

/** What a list was made from: `make` reads and serialises it afresh. */
export interface MadeList {
  body: Buffer;
  /** When the first answer shown as open stops being open, if any. */
  openUntil: Date | null;
}

export async function readKeptStaffList(
  ctx: AppContext,
  viewer: UserRow,
  scope: QuestionScope,
  make: () => Promise<MadeList>,
): Promise<Buffer> {
  const revision = await selectQuestionListRevision(ctx.db, scope.question.id);
  const stamp = JSON.stringify([revision, ctx.fileUrls.expiryNow(), scope]);
  const key = `${scope.question.id} ${viewer.id}`;
  const store = storeOf(ctx);
  const known = store.lists.get(key);
  if (known && known.stamp === stamp && currentTime(ctx).getTime() < known.until) {
    // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
    store.lists.delete(key);
    store.lists.set(key, known);
    return known.body;
  }
  const { body, openUntil } = await make();
  forget(store, key);
  store.lists.set(key, { stamp, body, until: openUntil?.getTime() ?? Number.POSITIVE_INFINITY });
  store.bytes += body.length;
  while (store.bytes > MAX_BYTES && store.lists.size > 1) forget(store, store.lists.keys().next().value!);
  return body;
}

function forget(store: Store, key: string): void {
  const known = store.lists.get(key);
  if (!known) return;
  store.lists.delete(key);
  store.bytes -= known.body.length;
}
