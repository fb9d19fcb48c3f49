import { describe, expect, it } from 'vitest';
import { drawingFace, unicodeRangeHolds, type FontFaceLike } from './font-faces.ts';

const face = (weight: string, unicodeRange: string, family = 'Roboto'): FontFaceLike & { name: string } => ({
  name: `${family} ${weight} ${unicodeRange}`,
  family,
  weight,
  style: 'normal',
  unicodeRange,
  load: () => Promise.resolve(),
});

describe('unicodeRangeHolds', () => {
  it('reads single points, ranges and wildcards, as Chromium writes them', () => {
    const range = 'U+0-7E, U+A0, U+2013-2014, U+4??';
    expect(unicodeRangeHolds(range, 0x41)).toBe(true);
    expect(unicodeRangeHolds(range, 0x7f)).toBe(false);
    expect(unicodeRangeHolds(range, 0xa0)).toBe(true);
    expect(unicodeRangeHolds(range, 0x2014)).toBe(true);
    expect(unicodeRangeHolds(range, 0x2015)).toBe(false);
    expect(unicodeRangeHolds(range, 0x4ff)).toBe(true);
    expect(unicodeRangeHolds(range, 0x500)).toBe(false);
  });
});

describe('drawingFace', () => {
  const latin = face('500', 'U+0-FF, U+2000-206F');
  const core = face('500', 'U+0-7E, U+2026');
  const cyrillic = face('500', 'U+400-45F');
  const faces = [face('400', 'U+0-7E'), latin, cyrillic, core, face('500', 'U+0-7E', 'Other')];

  it('is the last declared face of the family and weight that holds the character', () => {
    expect(drawingFace(faces, { family: 'Roboto', weight: 500, codePoint: 0x41 })).toBe(core);
    expect(drawingFace(faces, { family: 'Roboto', weight: 500, codePoint: 0xeb })).toBe(latin);
    expect(drawingFace(faces, { family: 'Roboto', weight: 500, codePoint: 0x416 })).toBe(cyrillic);
  });

  it('reads a quoted family name and finds nothing for a weight not declared', () => {
    expect(
      drawingFace([face('500', 'U+0-7E', '"Roboto"')], { family: 'Roboto', weight: 500, codePoint: 0x41 }),
    ).toBeDefined();
    expect(drawingFace(faces, { family: 'Roboto', weight: 300, codePoint: 0x41 })).toBeUndefined();
  });
});
