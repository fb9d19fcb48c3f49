/**
 * Writes Roboto's "core" faces into apps/web/src/fonts/ (decision 0134): for each weight the app
 * loads, @fontsource/roboto's Latin file cut down to ASCII and the punctuation the app's own texts
 * and MUI draw, and the @font-face rules that declare them after fontsource's Latin faces.
 *
 *   node scripts/subset-fonts.mjs           # after an upgrade of @fontsource/roboto or a new character
 *
 * Among faces of one family, weight and style the browser draws a character with the last declared
 * face whose unicode-range holds it, and downloads a face only for characters the page holds: a
 * page of ASCII text then loads the core files (about 13 KB each) instead of the Latin ones (about
 * 22 KB), and a page with "Zoë" also loads the Latin file, for the ë. The files are committed, so
 * the build and `npm ci` download nothing and run no WebAssembly; apps/web/src/fonts/roboto-core.json
 * records the source files' hashes, which a test compares with the installed fontsource.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import subsetFont from 'subset-font';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const fontsourceDir = path.dirname(require.resolve('@fontsource/roboto/package.json'));
const outDir = path.join(root, 'apps/web/src/fonts');

/** The weights src/fonts.css imports from fontsource. */
const WEIGHTS = [300, 400, 500, 700];

/**
 * The characters besides ASCII that the app's texts and MUI's components hold (found by listing the
 * non-ASCII characters of apps/web/src, packages/shared/src and the built scripts, decision 0134).
 * A character of fontsource's Latin range that is not here makes the page load the Latin file too,
 * and is still drawn in Roboto. (The keyboard shortcuts' ↑ and ↓ are in fontsource's Latin range but
 * not in Roboto: the script checks that every character here is in the file.)
 */
const PUNCTUATION = [
  0x00a0, // no-break space
  0x00a9, // © (the footer)
  0x00b7, // · (separators in lists and headings)
  0x00d7, // × (the statistics' factors)
  0x2009, // thin space (MUI's label of a required field, " *")
  0x200b, // zero-width space (MUI's outlined inputs and helper texts)
  0x2013, // –
  0x2014, // —
  0x2018, // ‘
  0x2019, // ’
  0x201c, // “
  0x201d, // ”
  0x2022, // •
  0x2026, // …
  0x2212, // − (minus)
];

const codePoints = [...range(0x20, 0x7e), ...PUNCTUATION];
const text = String.fromCodePoint(...codePoints);
// The range also holds the control characters, which no font draws: the HTML's newlines between
// tags (index.html's first paint) are in fontsource's Latin range (U+0000-00FF), and Chromium loaded
// the Latin file for them when the core range began at U+0020.
const unicodeRange = rangesOf([...range(0x00, 0x1f), ...codePoints]);
const sha256 = (buffer) => crypto.createHash('sha256').update(buffer).digest('hex');
const { version } = JSON.parse(fs.readFileSync(path.join(fontsourceDir, 'package.json'), 'utf8'));

fs.mkdirSync(outDir, { recursive: true });
const faces = [];
for (const weight of WEIGHTS) {
  const source = `files/roboto-latin-${weight}-normal.woff2`;
  const original = fs.readFileSync(path.join(fontsourceDir, source));
  // Every character of the range must be in the face: a character the range holds and the file
  // lacks would make the browser load the core file and then the Latin one for it.
  const covered = cmapOf(await subsetFont(original, text, { targetFormat: 'truetype' }));
  const missing = codePoints.filter((codePoint) => !covered.has(codePoint));
  if (missing.length > 0)
    throw new Error(`${source} has no glyph for ${missing.map((c) => `U+${hex(c)}`).join(', ')}.`);
  const core = await subsetFont(original, text, { targetFormat: 'woff2' });
  const file = `roboto-core-${weight}-normal.woff2`;
  fs.writeFileSync(path.join(outDir, file), core);
  faces.push({ weight, source, sourceSha256: sha256(original), file, bytes: core.length, sha256: sha256(core) });
  console.log(`${file}: ${core.length} bytes (${source}: ${original.length})`);
}

fs.copyFileSync(path.join(fontsourceDir, 'LICENSE'), path.join(outDir, 'LICENSE'));
await writeFormatted('roboto-core.json', JSON.stringify({ fontsource: version, unicodeRange, faces }));
await writeFormatted(
  'roboto-core.css',
  [
    '/*',
    ' * Written by scripts/subset-fonts.mjs (decision 0134); do not edit. Roboto (@fontsource/roboto',
    ` * ${version}, OFL-1.1: LICENSE) cut to ASCII and the app's punctuation, imported after`,
    " * fontsource's faces: the browser draws those characters with these smaller files and loads the",
    ' * Latin ones only for a page that holds another Latin character.',
    ' */',
    ...faces.map(({ weight, file }) =>
      [
        '@font-face {',
        "  font-family: 'Roboto';",
        '  font-style: normal;',
        '  font-display: swap;',
        `  font-weight: ${weight};`,
        `  src: url(./${file}) format('woff2');`,
        `  unicode-range: ${unicodeRange};`,
        '}',
      ].join('\n'),
    ),
  ].join('\n') + '\n',
);

/** Writes a text file of apps/web/src/fonts as `prettier --check` (npm run lint) wants it. */
async function writeFormatted(name, source) {
  const filepath = path.join(outDir, name);
  const options = await prettier.resolveConfig(filepath);
  fs.writeFileSync(filepath, await prettier.format(source, { ...options, filepath }));
}

function range(first, last) {
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

function hex(codePoint) {
  return codePoint.toString(16).toUpperCase().padStart(4, '0');
}

/** "U+0020-007E, U+00A0, …" for sorted code points. */
function rangesOf(points) {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const parts = [];
  for (let start = 0; start < sorted.length;) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end += 1;
    parts.push(end === start ? `U+${hex(sorted[start])}` : `U+${hex(sorted[start])}-${hex(sorted[end])}`);
    start = end + 1;
  }
  return parts.join(', ');
}

/** The code points a TrueType font maps to glyphs (its cmap's format 4 and 12 subtables). */
function cmapOf(font) {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let index = 0; index < tables; index += 1) {
    const record = 12 + index * 16;
    if (font.toString('latin1', record, record + 4) === 'cmap') cmap = view.getUint32(record + 8);
  }
  if (cmap < 0) throw new Error('The subset font has no cmap table.');
  const points = new Set();
  for (let index = 0; index < view.getUint16(cmap + 2); index += 1) {
    const subtable = cmap + view.getUint32(cmap + 4 + index * 8 + 4);
    const format = view.getUint16(subtable);
    if (format === 4) {
      const segments = view.getUint16(subtable + 6) / 2;
      const ends = subtable + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const offsets = deltas + segments * 2;
      for (let segment = 0; segment < segments; segment += 1) {
        const end = view.getUint16(ends + segment * 2);
        const start = view.getUint16(starts + segment * 2);
        const delta = view.getInt16(deltas + segment * 2);
        const offset = view.getUint16(offsets + segment * 2);
        for (let codePoint = start; codePoint <= end && codePoint !== 0xffff; codePoint += 1) {
          const glyph = offset
            ? view.getUint16(offsets + segment * 2 + offset + (codePoint - start) * 2)
            : (codePoint + delta) & 0xffff;
          if (glyph !== 0) points.add(codePoint);
        }
      }
    } else if (format === 12) {
      for (let group = 0; group < view.getUint32(subtable + 12); group += 1) {
        const record = subtable + 16 + group * 12;
        for (let codePoint = view.getUint32(record); codePoint <= view.getUint32(record + 4); codePoint += 1)
          points.add(codePoint);
      }
    }
  }
  return points;
}
