import { describe, expect, it } from 'vitest';
import { CommentRegion } from '@gradewise/shared/contracts/comment-region';
import {
  DEFAULT_REGION,
  describeRegion,
  KEY_STEP,
  MIN_REGION_FRACTION,
  moveRegion,
  regionAfterKey,
  regionFromDrag,
  regionToPercentStyle,
  resizeRegion,
} from './region-geometry.ts';

const page = { width: 600, height: 800 };

describe('regionFromDrag: pixels of a drag to fractions of the page', () => {
  it('turns a drag into the box between its points, as fractions of the page', () => {
    expect(regionFromDrag(2, { x: 60, y: 200 }, { x: 360, y: 400 }, page)).toEqual({
      page: 2,
      x: 0.1,
      y: 0.25,
      width: 0.5,
      height: 0.25,
    });
  });

  it('gives the same box whichever corner the drag starts from', () => {
    const forward = regionFromDrag(1, { x: 60, y: 200 }, { x: 360, y: 400 }, page);
    expect(regionFromDrag(1, { x: 360, y: 400 }, { x: 60, y: 200 }, page)).toEqual(forward);
    expect(regionFromDrag(1, { x: 360, y: 200 }, { x: 60, y: 400 }, page)).toEqual(forward);
  });

  it('means the same place at any page width (zoom or phone)', () => {
    const wide = regionFromDrag(1, { x: 150, y: 100 }, { x: 450, y: 300 }, page);
    const narrow = regionFromDrag(1, { x: 90, y: 60 }, { x: 270, y: 180 }, { width: 360, height: 480 });
    expect(narrow).toEqual(wide);
  });

  it('clamps a drag that leaves the page to the page edges, and the contract accepts it', () => {
    const region = regionFromDrag(1, { x: -50, y: -20 }, { x: 900, y: 1000 }, page);
    expect(region).toEqual({ page: 1, x: 0, y: 0, width: 1, height: 1 });
    expect(CommentRegion.safeParse(region).success).toBe(true);
  });

  it('keeps awkward fractions inside the page after rounding', () => {
    const region = regionFromDrag(1, { x: 1, y: 1 }, { x: 599.99, y: 799.99 }, { width: 600.01, height: 800.01 });
    expect(region).not.toBeNull();
    expect(CommentRegion.safeParse(region).success).toBe(true);
  });

  it('ignores a click or a line (no box), and a page with no size', () => {
    expect(regionFromDrag(1, { x: 100, y: 100 }, { x: 102, y: 300 }, page)).toBeNull();
    expect(regionFromDrag(1, { x: 100, y: 100 }, { x: 300, y: 103 }, page)).toBeNull();
    expect(regionFromDrag(1, { x: 0, y: 0 }, { x: 10, y: 10 }, { width: 0, height: 0 })).toBeNull();
  });
});

describe('regionToPercentStyle: fractions to CSS', () => {
  it('places a box by percentages of the page box', () => {
    expect(regionToPercentStyle({ page: 1, x: 0.1, y: 0.25, width: 0.5, height: 0.125 })).toEqual({
      left: '10%',
      top: '25%',
      width: '50%',
      height: '12.5%',
    });
  });
});

describe('keyboard drawing: move, resize, within the page', () => {
  const box = { page: 1, ...DEFAULT_REGION };

  it('arrows move the box one step, Shift+arrows resize it, Alt makes the step fine', () => {
    expect(regionAfterKey(box, 'ArrowRight')).toEqual({ ...box, x: 0.32 });
    expect(regionAfterKey(box, 'ArrowUp')).toEqual({ ...box, y: 0.38 });
    expect(regionAfterKey(box, 'ArrowRight', { shiftKey: true })).toEqual({ ...box, width: 0.42 });
    expect(regionAfterKey(box, 'ArrowUp', { shiftKey: true })).toEqual({ ...box, height: 0.18 });
    expect(regionAfterKey(box, 'ArrowLeft', { altKey: true })).toEqual({ ...box, x: 0.295 });
    expect(regionAfterKey(box, 'Enter')).toBeNull();
  });

  it('stops a moving box at the page edges without changing its size', () => {
    const atRight = { page: 1, x: 0.59, y: 0.01, width: 0.4, height: 0.2 };
    expect(moveRegion(atRight, KEY_STEP, -KEY_STEP)).toEqual({ ...atRight, x: 0.6, y: 0 });
    expect(moveRegion(atRight, -5, 5)).toEqual({ ...atRight, x: 0, y: 0.8 });
  });

  it('never grows a box past the page nor shrinks it below the smallest box', () => {
    const box2 = { page: 1, x: 0.7, y: 0.9, width: 0.25, height: 0.05 };
    expect(resizeRegion(box2, 0.2, 0.2)).toEqual({ ...box2, width: 0.3, height: 0.1 });
    expect(resizeRegion(box2, -1, -1)).toEqual({ ...box2, width: MIN_REGION_FRACTION, height: MIN_REGION_FRACTION });
  });

  it('keeps every box a sequence of keys makes valid for the contract', () => {
    let current = { page: 3, ...DEFAULT_REGION };
    const keys = ['ArrowRight', 'ArrowDown', 'ArrowRight', 'ArrowDown'];
    for (let index = 0; index < 200; index += 1) {
      const key = keys[index % keys.length]!;
      current = regionAfterKey(current, key, { shiftKey: index % 3 === 0 })!;
      expect(CommentRegion.safeParse(current).success).toBe(true);
    }
    expect(current.x + current.width).toBeCloseTo(1, 6);
    expect(current.y + current.height).toBeCloseTo(1, 6);
  });
});

describe('describeRegion', () => {
  it('says the page and where on it, for screen readers and the report', () => {
    expect(describeRegion({ page: 2, x: 0.05, y: 0.05, width: 0.2, height: 0.1 })).toBe('page 2, upper left');
    expect(describeRegion({ page: 1, x: 0.4, y: 0.45, width: 0.2, height: 0.1 })).toBe('page 1, middle');
    expect(describeRegion({ page: 1, x: 0.7, y: 0.8, width: 0.2, height: 0.1 })).toBe('page 1, lower right');
  });
});
