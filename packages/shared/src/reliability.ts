import type { Reliability, ReliabilityBin } from './contracts/statistics.ts';
import { isSuggestionKept } from './kept-suggestion.ts';

/**
 * The one rule of the reliability diagram (issue 27): what the AI's confidence said against what
 * the grader kept. A confidence of c claims "c% of suggestions like this one are kept", kept as in
 * `isSuggestionKept` (final score within 10% of the question's points of the suggested score).
 * Decisions fall into ten bands of 10 confidence points (0–9, …, 80–89, 90–100); each band gives
 * its count, the mean confidence said and the share kept. The expected calibration error is the
 * sum over bands of |said − kept| weighted by the band's share of the decisions, in percentage
 * points: 0 when the confidence tells the truth, up to 100 when it always says the opposite.
 */

/** One saved grade that started from an AI suggestion stating a confidence. */
export interface ConfidenceDecision {
  /** The confidence the suggestion said, 0..100 (outside values count in the end bands). */
  confidence: number;
  suggestedScore: number;
  finalScore: number;
  /** The question's points: the scale of "within 10%". */
  points: number;
}

export const RELIABILITY_BANDS = 10;
const BAND_WIDTH = 100 / RELIABILITY_BANDS;

/** The band of a confidence: 0 for 0–9, …, 9 for 90–100. */
export function reliabilityBand(confidence: number): number {
  return Math.min(RELIABILITY_BANDS - 1, Math.max(0, Math.floor(confidence / BAND_WIDTH)));
}

export function reliabilityDiagram(decisions: readonly ConfidenceDecision[]): Reliability {
  const bands = Array.from({ length: RELIABILITY_BANDS }, () => ({ count: 0, said: 0, kept: 0 }));
  for (const decision of decisions) {
    const band = bands[reliabilityBand(decision.confidence)]!;
    band.count += 1;
    band.said += Math.min(100, Math.max(0, decision.confidence));
    if (isSuggestionKept(decision.suggestedScore, decision.finalScore, decision.points)) band.kept += 1;
  }
  const total = decisions.length;
  const bins: ReliabilityBin[] = bands.map((band, index) => ({
    from: index * BAND_WIDTH,
    to: index === RELIABILITY_BANDS - 1 ? 100 : (index + 1) * BAND_WIDTH - 1,
    count: band.count,
    meanConfidence: band.count > 0 ? round(band.said / band.count, 100) : null,
    keptShare: band.count > 0 ? round(band.kept / band.count, 10_000) : null,
  }));
  if (total === 0) {
    return { decisions: 0, bins, expectedCalibrationError: null, meanConfidence: null, keptShare: null };
  }
  const error = bands.reduce(
    (sum, band) =>
      band.count === 0
        ? sum
        : sum + Math.abs(band.said / band.count - (100 * band.kept) / band.count) * (band.count / total),
    0,
  );
  const said = bands.reduce((sum, band) => sum + band.said, 0);
  const kept = bands.reduce((sum, band) => sum + band.kept, 0);
  return {
    decisions: total,
    bins,
    expectedCalibrationError: round(error, 100),
    meanConfidence: round(said / total, 100),
    keptShare: round(kept / total, 10_000),
  };
}

const round = (value: number, scale: number) => Math.round(value * scale) / scale;
