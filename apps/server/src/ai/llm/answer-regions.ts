import { z } from 'zod';
import { CommentRegion } from '@gradewise/shared/contracts/comment-region';

/**
 * Where on the answer's pages a model says a judgement is about (issue 13 item 12). Asked for only
 * when page images were sent: a model that saw only text cannot point at a place on a page.
 *
 * The schema the model answers is loose on purpose (any numbers): a box slightly off the page is
 * still a useful pointer, and a wrong box must never cost a repair call or fail the grading. What
 * the model sent is made safe here instead, by sanitizeAnswerRegion: clamped into the page, or
 * dropped when it cannot be a box on a page the model was shown.
 */
export const RegionAnswerSchema = z
  .strictObject({
    page: z.number().describe('The page number shown with the image (1 is the first page).'),
    x: z.number().describe("Left edge as a fraction of the page's width, 0 to 1."),
    y: z.number().describe("Top edge as a fraction of the page's height, 0 to 1."),
    width: z.number().describe("Width as a fraction of the page's width."),
    height: z.number().describe("Height as a fraction of the page's height."),
  })
  .nullable()
  .describe('The place on a page this judgement is about, or null when it is about no one place.');

/** A box thinner than this (a fraction of the page) is a line or a point: not something to show. */
export const MIN_REGION_SIZE = 0.005;

/**
 * Pure. A model's region made into a CommentRegion, or null when it cannot be one:
 * - the page must be a whole number among the pages whose images were sent;
 * - every value must be a finite number; the box is clamped into the page (0..1 on both axes);
 * - what is left must be at least MIN_REGION_SIZE wide and high.
 * Never throws, whatever it is given (stored outputs are re-read long after the call).
 */
export function sanitizeAnswerRegion(raw: unknown, pagesShown: ReadonlySet<number>): CommentRegion | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { page, x, y, width, height } = raw as Record<string, unknown>;
  if (typeof page !== 'number' || !Number.isInteger(page) || !pagesShown.has(page)) return null;
  const values = [x, y, width, height];
  if (!values.every((value): value is number => typeof value === 'number' && Number.isFinite(value))) return null;
  // Edges, not sizes, are clamped and rounded: the box then ends inside the page by construction.
  const [left, top, right, bottom] = [
    round(clampUnit(x as number)),
    round(clampUnit(y as number)),
    round(clampUnit((x as number) + (width as number))),
    round(clampUnit((y as number) + (height as number))),
  ];
  if (right - left < MIN_REGION_SIZE || bottom - top < MIN_REGION_SIZE) return null;
  const region = { page, x: left, y: top, width: round(right - left), height: round(bottom - top) };
  // The shared contract is the last word: what it refuses is not kept.
  const checked = CommentRegion.safeParse(region);
  return checked.success ? checked.data : null;
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** Four decimals: a tenth of a pixel on a 1000-pixel page, and short in the stored JSON. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
