import { describe, expect, it } from 'vitest';
import { Slots } from '../src/lib/slots.ts';

/** Work a test finishes by hand, so what runs at once is decided by the test, not by time. */
function heldWork() {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  let started = false;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    work: () => {
      started = true;
      return done;
    },
    finish,
    fail,
    get started() {
      return started;
    },
  };
}

/** Lets every promise callback queued now run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Slots: a fixed number of slots shared by async work', () => {
  it('runs at most `size` works at once and starts the waiters first come, first served', async () => {
    const slots = new Slots(2);
    const works = Array.from({ length: 5 }, () => heldWork());
    const runs = works.map((held) => slots.run(held.work));
    await settle();
    expect(works.map((held) => held.started)).toEqual([true, true, false, false, false]);
    expect([slots.inUse, slots.waiting]).toEqual([2, 3]);

    works[1]!.finish();
    await settle();
    expect(works.map((held) => held.started)).toEqual([true, true, true, false, false]);
    works[0]!.finish();
    works[2]!.finish();
    await settle();
    expect(works.map((held) => held.started)).toEqual([true, true, true, true, true]);
    works[3]!.finish();
    works[4]!.finish();
    await Promise.all(runs);
    expect([slots.inUse, slots.waiting, slots.mostInUse]).toEqual([0, 0, 2]);
  });

  it('frees the slot of work that fails, and passes the failure on', async () => {
    const slots = new Slots(1);
    const failing = heldWork();
    const next = heldWork();
    const first = slots.run(failing.work);
    const second = slots.run(next.work);
    failing.fail(new Error('provider down'));
    await expect(first).rejects.toThrow('provider down');
    await settle();
    expect(next.started).toBe(true);
    next.finish();
    await second;
    expect(slots.inUse).toBe(0);
  });

  it('a waiter whose signal aborts stops waiting, takes no slot and never runs', async () => {
    const slots = new Slots(1);
    const holder = heldWork();
    const abandoned = heldWork();
    const after = heldWork();
    const abort = new AbortController();
    const holding = slots.run(holder.work);
    const waiting = slots.run(abandoned.work, abort.signal);
    const last = slots.run(after.work);
    abort.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
    expect(slots.waiting).toBe(1);

    holder.finish();
    await holding;
    await settle();
    expect(abandoned.started).toBe(false);
    expect(after.started).toBe(true);
    after.finish();
    await last;
    expect(slots.inUse).toBe(0);
  });

  it('refuses a signal that is already aborted without taking a slot', async () => {
    const slots = new Slots(1);
    const work = heldWork();
    await expect(slots.run(work.work, AbortSignal.abort(new Error('stopped')))).rejects.toThrow('stopped');
    expect([work.started, slots.inUse]).toEqual([false, 0]);
  });
});
