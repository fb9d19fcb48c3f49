import { describe, expect, it } from 'vitest';
import { reliabilityBand, reliabilityDiagram, type ConfidenceDecision } from './reliability.ts';

const decision = (confidence: number, suggestedScore: number, finalScore: number, points = 10): ConfidenceDecision => ({
  confidence,
  suggestedScore,
  finalScore,
  points,
});

describe('reliabilityDiagram', () => {
  it('without decisions: the ten empty bands, and no figures', () => {
    const diagram = reliabilityDiagram([]);
    expect(diagram).toMatchObject({
      decisions: 0,
      expectedCalibrationError: null,
      meanConfidence: null,
      keptShare: null,
    });
    expect(diagram.bins.map((bin) => [bin.from, bin.to])).toEqual([
      [0, 9],
      [10, 19],
      [20, 29],
      [30, 39],
      [40, 49],
      [50, 59],
      [60, 69],
      [70, 79],
      [80, 89],
      [90, 100],
    ]);
    expect(diagram.bins.every((bin) => bin.count === 0 && bin.meanConfidence === null && bin.keptShare === null)).toBe(
      true,
    );
  });

  it('per band: the count, the mean confidence said and the share kept; ECE weighs each band by its share', () => {
    const diagram = reliabilityDiagram([
      // 90–100: said 95 on average, 3 of 4 kept (1.5 points off a 10-point question is not kept).
      decision(95, 8, 8),
      decision(95, 8, 9),
      decision(90, 8, 9.5),
      decision(100, 10, 10),
      // 50–59: said 54, 1 of 2 kept.
      decision(50, 4, 4),
      decision(58, 4, 7),
      // 0–9: said 5, none kept.
      decision(5, 0, 10),
    ]);
    expect(diagram.decisions).toBe(7);
    expect(diagram.bins[9]).toEqual({ from: 90, to: 100, count: 4, meanConfidence: 95, keptShare: 0.75 });
    expect(diagram.bins[5]).toEqual({ from: 50, to: 59, count: 2, meanConfidence: 54, keptShare: 0.5 });
    expect(diagram.bins[0]).toEqual({ from: 0, to: 9, count: 1, meanConfidence: 5, keptShare: 0 });
    expect(diagram.bins.filter((bin) => bin.count === 0)).toHaveLength(7);
    // (|95 − 75| × 4 + |54 − 50| × 2 + |5 − 0| × 1) / 7 = 93 / 7
    expect(diagram.expectedCalibrationError).toBe(13.29);
    expect(diagram.meanConfidence).toBe(70.43);
    expect(diagram.keptShare).toBe(0.5714);
  });

  it('kept is the shared rule: within 10% of the question’s points, inclusive, on each question’s scale', () => {
    const diagram = reliabilityDiagram([decision(80, 9, 10), decision(80, 18, 20, 20), decision(80, 18, 20.5, 20)]);
    expect(diagram.bins[8]).toMatchObject({ count: 3, keptShare: 0.6667 });
  });

  it('a confidence that tells the truth has an ECE of 0', () => {
    const decisions = [
      ...Array.from({ length: 4 }, (_, index) => decision(75, 5, index < 3 ? 5 : 0)),
      ...Array.from({ length: 2 }, (_, index) => decision(50, 5, index < 1 ? 5 : 0)),
    ];
    expect(reliabilityDiagram(decisions).expectedCalibrationError).toBe(0);
  });

  it('bands by tens, the last one including 100; values outside 0..100 count in the end bands', () => {
    expect([0, 9, 9.99, 10, 19, 89, 90, 100].map(reliabilityBand)).toEqual([0, 0, 0, 1, 1, 8, 9, 9]);
    expect(reliabilityBand(-5)).toBe(0);
    expect(reliabilityBand(130)).toBe(9);
    const diagram = reliabilityDiagram([decision(130, 5, 5), decision(-5, 5, 0)]);
    expect(diagram.bins[9]).toMatchObject({ count: 1, meanConfidence: 100, keptShare: 1 });
    expect(diagram.bins[0]).toMatchObject({ count: 1, meanConfidence: 0, keptShare: 0 });
    expect(diagram.expectedCalibrationError).toBe(0);
  });
});
