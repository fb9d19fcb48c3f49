import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/** How far a box may poke past the page edge from rounding alone (browsers send long decimals). */
const EDGE_TOLERANCE = 1e-6;

const fraction = (name: string) =>
  z
    .number({ error: `The region's ${name} must be a number.` })
    .min(0, `The region's ${name} must be between 0 and 1 (a fraction of the page).`)
    .max(1, `The region's ${name} must be between 0 and 1 (a fraction of the page).`);

/**
 * The place on the answer a comment is about: a page (1-based) and a box on it in fractions of the
 * page's width and height, top-left origin, so it means the same at any zoom and on any screen.
 * Drawn by the instructor on the grading screen or returned by a grader that reads page images.
 * That the page exists in the submission's PDF is checked by the server, which knows the file.
 */
export const CommentRegion = lazySchema(() =>
  z
    .object({
      page: z
        .number({ error: "The region's page must be a whole number." })
        .int("The region's page must be a whole number.")
        .min(1, "The region's page must be 1 or more."),
      x: fraction('left edge (x)'),
      y: fraction('top edge (y)'),
      width: fraction('width').positive("The region's width must be more than 0."),
      height: fraction('height').positive("The region's height must be more than 0."),
    })
    .superRefine((region, context) => {
      if (region.x + region.width > 1 + EDGE_TOLERANCE) {
        context.addIssue({
          code: 'custom',
          path: ['width'],
          message: 'The region must end inside the page (x + width ≤ 1).',
        });
      }
      if (region.y + region.height > 1 + EDGE_TOLERANCE) {
        context.addIssue({
          code: 'custom',
          path: ['height'],
          message: 'The region must end inside the page (y + height ≤ 1).',
        });
      }
    }),
);
export type CommentRegion = z.infer<typeof CommentRegion>;
