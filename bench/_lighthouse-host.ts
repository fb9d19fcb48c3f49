/**
 * How fast the measuring machine's CPU is, as Lighthouse reads it before every run
 * (`lhr.environment.benchmarkIndex`: a fixed piece of JavaScript timed in the page's renderer).
 *
 * Lighthouse's mobile score simulates a phone by multiplying what each main-thread task took here
 * by 4. That multiplier assumes a fast desktop host; on a slower host every task, and so the total
 * blocking time, is counted longer than a phone would take. Lighthouse itself warns below an index of
 * 1,000 ("at least ~2x weaker than our regular target device", core/gather/driver/environment.js).
 * The same build scored a median of 0.89 on one machine of this project and 0.70 on another whose
 * index was 1,100-1,700 (decision 0126), so each score is printed with the index it was measured at.
 */
import { median } from './_measuring-browser.ts';

/** Lighthouse's own threshold for its "slower CPU than Lighthouse expects" warning. */
export const LIGHTHOUSE_SLOW_HOST_INDEX = 1000;

export function hostCpuIndexLine(indexes: readonly number[]): string {
  if (indexes.length === 0) return 'host CPU index not measured';
  const low = Math.min(...indexes);
  const high = Math.max(...indexes);
  return (
    `host CPU index (Lighthouse's benchmarkIndex) median ${median([...indexes]).toFixed(0)}, ` +
    `${low.toFixed(0)}-${high.toFixed(0)}; Lighthouse warns of a slow host below ${LIGHTHOUSE_SLOW_HOST_INDEX}, ` +
    `and its 4x CPU multiplier counts every task longer on a slow host (compare scores at similar indexes)`
  );
}
