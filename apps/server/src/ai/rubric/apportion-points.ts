/**
 * Splits a question's points over rubric items in proportion to weights (what a model proposed),
 * so that the parts add up EXACTLY to the total: a rubric whose items sum to 9.99 of 10 points
 * would make every perfect answer lose a hundredth.
 *
 * Points are handed out in whole "units": 1 point when the total allows every item at least one
 * point, else the largest of 0.5, 0.25, 0.1, 0.05, 0.01 that does. Units are allocated by the
 * largest-remainder method, each item getting at least one unit (a zero-point criterion is noise
 * for the grader). When there are more items than units, the lightest items are dropped first.
 * A split that already adds up exactly (2.5 + 2.5 + 5 of 10) is kept as the model wrote it.
 * Working in integer units keeps the sum exact for whole and half points (exactly representable
 * floats); finer totals are exact to the hundredth.
 */

const UNITS = [1, 0.5, 0.25, 0.1, 0.05, 0.01];

export function apportionPoints(weights: number[], total: number): number[] {
  if (weights.length === 0) return [];
  if (!(total > 0)) return weights.map(() => 0);
  const cleanWeights = weights.map((weight) => (Number.isFinite(weight) && weight > 0 ? weight : 0));
  if (isAlreadyExact(cleanWeights, total)) return cleanWeights.map((weight) => Math.round(weight * 100) / 100);

  const unit = pickUnit(total, cleanWeights.length);
  const unitCount = Math.round(total / unit);
  const kept = keepHeaviest(cleanWeights, unitCount);
  const units = allocateUnits(
    kept.map((index) => cleanWeights[index] ?? 0),
    unitCount,
  );

  const points = weights.map(() => 0);
  kept.forEach((index, position) => {
    points[index] = toUnitMultiple(units[position] ?? 0, unit);
  });
  return points;
}

/** The model already split the total exactly (e.g. 2.5 + 2.5 + 5 of 10): keep its half points. */
function isAlreadyExact(weights: number[], total: number): boolean {
  const inHundredths = weights.map((weight) => Math.round(weight * 100));
  const isWholeHundredths = weights.every(
    (weight, index) => Math.abs(weight * 100 - (inHundredths[index] ?? 0)) < 1e-6,
  );
  const sum = inHundredths.reduce((acc, value) => acc + value, 0);
  return isWholeHundredths && sum === Math.round(total * 100) && Math.abs(total * 100 - sum) < 1e-6;
}

function pickUnit(total: number, itemCount: number): number {
  for (const unit of UNITS) {
    const count = total / unit;
    if (Math.abs(count - Math.round(count)) < 1e-9 && Math.round(count) >= itemCount) return unit;
  }
  return 0.01;
}

/** Indexes of the heaviest `limit` items, in their original order (ties: earlier item wins). */
function keepHeaviest(weights: number[], limit: number): number[] {
  const indexes = weights.map((_, index) => index);
  if (weights.length <= limit) return indexes;
  return indexes
    .sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || a - b)
    .slice(0, Math.max(1, limit))
    .sort((a, b) => a - b);
}

function allocateUnits(weights: number[], unitCount: number): number[] {
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  // All-zero weights (a model that proposed no points) mean "equally important".
  const shares =
    weightSum > 0
      ? weights.map((weight) => (weight / weightSum) * unitCount)
      : weights.map(() => unitCount / weights.length);
  const units = shares.map((share) => Math.max(1, Math.floor(share)));
  let allocated = units.reduce((sum, count) => sum + count, 0);

  // Too many (the minimum of one unit pushed us over): take from items most above their share.
  while (allocated > unitCount) {
    const index = pickBy(units, (count, i) => (count > 1 ? count - (shares[i] ?? 0) : -Infinity));
    units[index] = (units[index] ?? 1) - 1;
    allocated -= 1;
  }
  // Too few (floors): give to items most below their share.
  while (allocated < unitCount) {
    const index = pickBy(units, (count, i) => (shares[i] ?? 0) - count);
    units[index] = (units[index] ?? 0) + 1;
    allocated += 1;
  }
  return units;
}

/** Index with the highest score; the earliest on ties, so the result is deterministic. */
function pickBy(values: number[], score: (value: number, index: number) => number): number {
  let best = 0;
  let bestScore = -Infinity;
  values.forEach((value, index) => {
    const current = score(value, index);
    if (current > bestScore + 1e-12) {
      best = index;
      bestScore = current;
    }
  });
  return best;
}

function toUnitMultiple(units: number, unit: number): number {
  return Math.round(units * unit * 100) / 100;
}
