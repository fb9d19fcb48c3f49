/**
 * The one meaning of "kept", on which the confidence, its calibration and the statistics rest: the
 * instructor's final score is within 10% of the question's points of the AI's suggested score.
 * A hair of slack for floating point: 9 against 10 on a 10-point question is kept.
 */
export const KEPT_TOLERANCE = 0.1;

export function isSuggestionKept(suggestedScore: number, finalScore: number, points: number): boolean {
  return Math.abs(suggestedScore - finalScore) <= KEPT_TOLERANCE * points + 1e-9;
}
