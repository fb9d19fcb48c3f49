import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The copy ratchet of `npm run lint` (issue 33, decision 0078): jscpd counts the pairs of repeated
 * code in apps/ and packages/ (tests, builds and migrations aside), and lint fails when there are
 * more than scripts/copies-baseline.json allows. A new copy is moved to one home (HOUSE-RULES 4)
 * instead of raising the baseline; when a copy goes, this says to lower the baseline, so it only
 * ever moves down.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineFile = path.join(root, 'scripts/copies-baseline.json');
const { clones: baseline } = JSON.parse(fs.readFileSync(baselineFile, 'utf8'));

// jscpd's ES module build does not load on Node 20 (it imports 'colors/safe' without an extension).
const require = createRequire(import.meta.url);
const { detectClones } = require('jscpd');
const clones = await detectClones({
  path: [path.join(root, 'apps'), path.join(root, 'packages')],
  ignore: ['**/node_modules/**', '**/dist/**', '**/test/**', '**/*.test.ts', '**/*.test.tsx', '**/migrations/**'],
  format: ['typescript', 'tsx', 'javascript', 'jsx'],
  // jscpd's defaults, written down: a pair is at least 5 lines and 50 tokens repeated.
  minLines: 5,
  minTokens: 50,
  gitignore: true,
  silent: true,
  reporters: [],
});

const where = (part) => `${path.relative(root, part.sourceId)}:${part.start.line}-${part.end.line}`;
if (clones.length > baseline) {
  console.error(`Repeated code: ${clones.length} pairs, the baseline allows ${baseline}. Give the new copy one home:`);
  for (const clone of clones) console.error(`  ${where(clone.duplicationA)}  ~  ${where(clone.duplicationB)}`);
  process.exit(1);
}
if (clones.length < baseline) {
  console.log(
    `Repeated code: ${clones.length} pairs, fewer than the baseline's ${baseline}: set "clones" to ${clones.length} in scripts/copies-baseline.json.`,
  );
} else {
  console.log(`Repeated code: ${clones.length} pairs (baseline ${baseline}).`);
}
