import { roundToHundredths } from './final-grade.ts';

/**
 * Points are kept to the hundredth: two amounts closer than half a hundredth are the same amount
 * (a rubric's items "add up", a regrade's grade "is unchanged").
 */
export const POINTS_TOLERANCE = 0.005;

export function isSamePoints(left: number, right: number): boolean {
  return Math.abs(left - right) <= POINTS_TOLERANCE;
}

/** Points as people read them: no float noise (7.499999 -> 7.5), no trailing zeros. */
export function formatPoints(value: number): string {
  return String(roundToHundredths(value));
}
