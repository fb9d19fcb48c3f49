import type { AppContext } from '../context.ts';

/** The time by the context's clock (tests move it to let time pass), else the system's. */
export function currentTime(ctx: Pick<AppContext, 'clock'>): Date {
  return ctx.clock ? ctx.clock() : new Date();
}
