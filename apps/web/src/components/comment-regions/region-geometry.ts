import type { CommentRegion } from '@gradewise/shared/contracts/comment-region';

/**
 * The arithmetic of comment regions on the web side, pure so it is tested without a browser.
 * A region is a box in fractions of the page, top-left origin (the shared contract): pixels only
 * exist while drawing, and a box is drawn with percentages, so it sits right at any page width.
 */

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

/** A box smaller than this (fraction of the page) is a click, not a drawing. */
export const MIN_REGION_FRACTION = 0.01;
/** Where a box starts when drawn from the keyboard: the middle of the page, a third wide. */
export const DEFAULT_REGION: Omit<CommentRegion, 'page'> = { x: 0.3, y: 0.4, width: 0.4, height: 0.2 };
/** How far one arrow key press moves or resizes a box; Alt gives fine steps. */
export const KEY_STEP = 0.02;
export const FINE_KEY_STEP = 0.005;

const clampUnit = (value: number) => Math.min(1, Math.max(0, value));
/** Four decimals: a tenth of a pixel on a 1000-pixel page, and what the server keeps. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The box between two points of a drag, in pixels relative to the page's top-left corner, as
 * fractions of the page. The drag may go any direction and leave the page (clamped to its edges);
 * too small a box (a click) is null.
 */
export function regionFromDrag(page: number, start: Point, end: Point, size: Size): CommentRegion | null {
  if (!(size.width > 0) || !(size.height > 0)) return null;
  const left = round(clampUnit(Math.min(start.x, end.x) / size.width));
  const right = round(clampUnit(Math.max(start.x, end.x) / size.width));
  const top = round(clampUnit(Math.min(start.y, end.y) / size.height));
  const bottom = round(clampUnit(Math.max(start.y, end.y) / size.height));
  if (right - left < MIN_REGION_FRACTION || bottom - top < MIN_REGION_FRACTION) return null;
  return { page, x: left, y: top, width: round(right - left), height: round(bottom - top) };
}

/** Where a region sits on its page, as CSS percentages of the page box. */
export function regionToPercentStyle(region: CommentRegion): {
  left: string;
  top: string;
  width: string;
  height: string;
} {
  const percent = (value: number) => `${round(value * 100)}%`;
  return {
    left: percent(region.x),
    top: percent(region.y),
    width: percent(region.width),
    height: percent(region.height),
  };
}

/** Moves a box by (dx, dy), stopping at the page's edges (its size never changes). */
export function moveRegion(region: CommentRegion, dx: number, dy: number): CommentRegion {
  return {
    ...region,
    x: round(Math.min(Math.max(region.x + dx, 0), 1 - region.width)),
    y: round(Math.min(Math.max(region.y + dy, 0), 1 - region.height)),
  };
}

/** Grows or shrinks a box from its bottom-right corner, at least MIN_REGION_FRACTION, within the page. */
export function resizeRegion(region: CommentRegion, dWidth: number, dHeight: number): CommentRegion {
  return {
    ...region,
    width: round(Math.min(Math.max(region.width + dWidth, MIN_REGION_FRACTION), 1 - region.x)),
    height: round(Math.min(Math.max(region.height + dHeight, MIN_REGION_FRACTION), 1 - region.y)),
  };
}

/**
 * What an arrow key does to the box being drawn from the keyboard: arrows move it, Shift+arrows
 * resize it (right/down grow, left/up shrink); Alt makes the step fine. Null for any other key.
 */
export function regionAfterKey(
  region: CommentRegion,
  key: string,
  modifiers: { shiftKey?: boolean; altKey?: boolean } = {},
): CommentRegion | null {
  const step = modifiers.altKey ? FINE_KEY_STEP : KEY_STEP;
  const direction: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const delta = direction[key];
  if (!delta) return null;
  return modifiers.shiftKey ? resizeRegion(region, delta[0], delta[1]) : moveRegion(region, delta[0], delta[1]);
}

/** A region in words, for screen readers and the report's list ("page 2, upper left"). */
export function describeRegion(region: CommentRegion): string {
  const centreX = region.x + region.width / 2;
  const centreY = region.y + region.height / 2;
  const vertical = centreY < 1 / 3 ? 'upper' : centreY > 2 / 3 ? 'lower' : 'middle';
  const horizontal = centreX < 1 / 3 ? 'left' : centreX > 2 / 3 ? 'right' : 'centre';
  const where = vertical === 'middle' && horizontal === 'centre' ? 'middle' : `${vertical} ${horizontal}`;
  return `page ${region.page}, ${where}`;
}
