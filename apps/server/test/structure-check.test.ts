import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNestedFormsPdf, buildNestedStatesPdf, buildTextPdf } from '../src/demo/pdf-documents.ts';
import { nestingTooDeepError } from '../src/pdf/extraction-error.ts';
import { closeExtractionPool } from '../src/pdf/extraction-pool.ts';
import { checkStructureOffThread, skipStructureCheck, structureCheckStats } from '../src/pdf/structure-check.ts';
import { runCountingThreads } from './support/os-threads.ts';

/**
 * The structure check uploads go through before a reading thread (decision 0100): stream-guard.ts's
 * counts on a thread of their own, owners in turn, and a file someone waits for leaves the queue.
 */
describe('the structure check thread', () => {
  afterAll(async () => {
    await closeExtractionPool();
  });

  it("answers the counts' file fault for a hostile file and none for an honest one, keeping the caller's bytes", async () => {
    const honest = await buildTextPdf({ paragraphs: ['Osmosis is the movement of water across a membrane.'] });
    const length = honest.byteLength;
    expect(await checkStructureOffThread(honest, { owner: 'a' })).toBeNull();
    expect(honest.byteLength).toBe(length);
    for (const hostile of [await buildNestedStatesPdf(100_000), await buildNestedFormsPdf(60, 1_000)]) {
      const fault = await checkStructureOffThread(hostile, { owner: 'a' });
      expect(fault).toMatchObject({ code: 'too-complex', message: nestingTooDeepError(2_000).message });
    }
  });

  it('lets owners take turns: one person’s queued files do not hold another’s', async () => {
    const file = await buildTextPdf({ paragraphs: ['An answer.'] });
    const order: string[] = [];
    const check = (label: string, owner: string) =>
      checkStructureOffThread(file, { owner }).then(() => void order.push(label));
    // a1 starts at once; a2 and a3 wait, then b1, queued last, goes before them.
    await Promise.all([check('a1', 'a'), check('a2', 'a'), check('a3', 'a'), check('b1', 'b')]);
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('answers at once, without counting, a file someone starts waiting for while it waits for the thread', async () => {
    const file = await buildNestedStatesPdf(100_000);
    const before = structureCheckStats();
    const waitingPlace = { owner: 'c' };
    const first = checkStructureOffThread(file, { owner: 'c' });
    const waiting = checkStructureOffThread(file, waitingPlace);
    skipStructureCheck(waitingPlace);
    // Not counted: no verdict (the reading thread it goes on to counts it itself).
    expect(await waiting).toBeNull();
    expect((await first)?.code).toBe('too-complex');
    expect(structureCheckStats()).toMatchObject({
      skipped: before.skipped + 1,
      checked: before.checked + 1,
      refused: before.refused + 1,
    });
  });

  it('closes only once its thread has exited, also when it ends the thread in the middle of a check', async () => {
    const checkModule = fileURLToPath(new URL('../src/pdf/structure-check.ts', import.meta.url));
    const documentsModule = fileURLToPath(new URL('../src/demo/pdf-documents.ts', import.meta.url));
    // The check's thread shows up in the child's OS thread count until it has exited.
    const counts = await runCountingThreads<{ before: number; during: number; after: number; fault: unknown }>(
      [
        `const { checkStructureOffThread, closeStructureCheck } = await import(${JSON.stringify(checkModule)});`,
        `const { buildNestedFormsPdf } = await import(${JSON.stringify(documentsModule)});`,
        'const file = await buildNestedFormsPdf(60, 1_000);',
        "await fs.promises.readFile('/proc/self/status');", // starts libuv's thread pool before counting
        'const before = osThreads();',
        "const checked = checkStructureOffThread(file, { owner: 'a' });",
        'const during = osThreads();',
        'await closeStructureCheck();', // the check is still running: close gives it up and ends the thread
        'const after = osThreads();',
        'const fault = await checked;',
        'console.log(JSON.stringify({ before, during, after, fault }));',
      ],
      120_000,
    );
    expect(counts.during).toBeGreaterThan(counts.before); // the thread was started
    expect(counts.fault).toBeNull(); // given up by the close, not answered
    expect(counts.after).toBe(counts.before);
  }, 150_000);
});
