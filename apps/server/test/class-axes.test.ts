import { describe, expect, it } from 'vitest';
import { classAxesOf, placeOnAxes, SMALLEST_CLASS_FOR_AXES } from '../src/ai/builtin/class-axes.ts';
import { spreadClass as classOf } from './support/spread-class.ts';

/**
 * A class's answers differ from one another along a few directions of meaning; the grader measures
 * where each answer sits along them, in the class's own spreads (decision 0136). The class here is
 * made by hand (support/spread-class.ts): wide along the first axis, narrower along the fourth.
 */

const dot = (left: ArrayLike<number>, right: ArrayLike<number>) => {
  let sum = 0;
  for (let index = 0; index < left.length; index++) sum += left[index]! * right[index]!;
  return sum;
};

describe('the directions a class differs in', () => {
  it('finds the widest spread first, then the next, as orthogonal unit directions', () => {
    const axes = classAxesOf(classOf(200, 3))!;
    expect(axes.axes.length).toBe(4);
    expect(Math.abs(axes.axes[0]![0]!)).toBeGreaterThan(0.99);
    expect(Math.abs(axes.axes[1]![3]!)).toBeGreaterThan(0.99);
    for (const [index, axis] of axes.axes.entries()) {
      expect(dot(axis, axis)).toBeCloseTo(1, 6);
      for (const other of axes.axes.slice(index + 1)) expect(Math.abs(dot(axis, other))).toBeLessThan(1e-6);
    }
    expect(axes.spreads[0]).toBeGreaterThan(0.25);
    expect(axes.spreads[0]).toBeLessThan(0.35);
    expect(axes.spreads[1]).toBeGreaterThan(0.08);
    expect(axes.spreads[1]).toBeLessThan(0.12);
  });

  it("places the class's answers at mean 0 and spread 1 along every axis", () => {
    const members = classOf(120, 5);
    const axes = classAxesOf(members)!;
    const places = members.map((member) => placeOnAxes(member, axes));
    for (let axis = 0; axis < axes.axes.length; axis++) {
      const values = places.map((place) => place[axis]!);
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      const meanSquare = values.reduce((sum, value) => sum + value * value, 0) / values.length;
      expect(Math.abs(mean)).toBeLessThan(1e-6);
      expect(meanSquare).toBeCloseTo(1, 3);
    }
  });

  it('gives the same axes for the same class every time (grading stays deterministic)', () => {
    const first = classAxesOf(classOf(60, 9))!;
    const second = classAxesOf(classOf(60, 9))!;
    expect(second.axes.map((axis) => [...axis])).toEqual(first.axes.map((axis) => [...axis]));
    expect(second.spreads).toEqual(first.spreads);
  });

  it('measures no axes for a class too small to show any, and places nothing', () => {
    const small = classOf(SMALLEST_CLASS_FOR_AXES - 1, 1);
    expect(classAxesOf(small)).toBeNull();
    expect(placeOnAxes(small[0]!, null)).toEqual([]);
    expect(classAxesOf(classOf(SMALLEST_CLASS_FOR_AXES, 1))).not.toBeNull();
  });

  it('stops at the directions the class has: copies of two answers differ along one', () => {
    const [first, second] = classOf(2, 4);
    const copies = Array.from({ length: 30 }, (_, index) => (index % 2 ? first! : second!));
    const axes = classAxesOf(copies)!;
    expect(axes.axes.length).toBe(1);
    expect(axes.spreads.every((spread) => Number.isFinite(spread) && spread > 0)).toBe(true);
  });
});
