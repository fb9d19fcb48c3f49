/** The parts of a FontFace this module reads (a CSS `@font-face` rule as `document.fonts` lists it). */
export interface FontFaceLike {
  family: string;
  weight: string;
  style: string;
  unicodeRange: string;
  load(): Promise<unknown>;
}

/**
 * The face the browser draws `codePoint` with in `family` at `weight` (normal style): of the faces
 * whose unicode-range holds it, the last declared (CSS Fonts 4, "font matching": among faces with
 * the same descriptors the last defined is checked first). `document.fonts` lists a page's faces in
 * the order its stylesheets declare them.
 *
 * `document.fonts.load(font)` is not that: it loads every face whose range meets its text (a space
 * by default), and Roboto's Latin file's range (U+0000-00FF, …) meets every text its smaller core
 * face covers (decision 0134).
 */
export function drawingFace<Face extends FontFaceLike>(
  faces: Iterable<Face>,
  { family, weight, codePoint }: { family: string; weight: number; codePoint: number },
): Face | undefined {
  let found: Face | undefined;
  for (const face of faces)
    if (
      face.family.replace(/^["']|["']$/g, '') === family &&
      face.weight === String(weight) &&
      face.style === 'normal' &&
      unicodeRangeHolds(face.unicodeRange, codePoint)
    )
      found = face;
  return found;
}

/** Whether a unicode-range value ("U+0-FF, U+131, U+4??") holds `codePoint`. */
export function unicodeRangeHolds(unicodeRange: string, codePoint: number): boolean {
  return unicodeRange.split(',').some((part) => {
    const match = /^\s*U\+([0-9a-f?]{1,6})(?:-([0-9a-f]{1,6}))?\s*$/i.exec(part);
    if (!match) return false;
    const first = parseInt(match[1]!.replaceAll('?', '0'), 16);
    const last = parseInt(match[2] ?? match[1]!.replaceAll('?', 'f'), 16);
    return codePoint >= first && codePoint <= last;
  });
}
