import type { Plugin, Rollup } from 'vite';
import { gradingScreenFirstReads, type FirstRead } from '../src/app/grading-screen-first-reads.ts';
import { API_BASE } from '../src/lib/api-paths.ts';
import { authApiPaths } from '../src/lib/auth-api-paths.ts';
import { PREFETCH_OFF_STORAGE_KEY, TOKEN_STORAGE_KEY } from '../src/lib/browser-storage.ts';

/** The grading screen's route module and its dialog, which the route table loads together (router.tsx). */
export const GRADING_SCREEN_MODULES = [
  '/src/app/routes/grade-submission-route.tsx',
  '/src/features/grading/components/grading-dialog.tsx',
];

/** Stand-ins for the address's ids in the reads written into the page (encodeURIComponent keeps them). */
const ID_MARKERS = { assignmentId: '__assignmentId__', questionId: '__questionId__', submissionId: '__submissionId__' };

/**
 * The grading screen's files and first reads, asked for as the page starts instead of after the
 * app's entry has run (decision 0109). On a first visit the route's loader asks for them once the
 * entry's scripts (about 175 KB) have arrived and run; then the screen's twenty-odd files and its
 * four reads share the browser's six connections, round after round, before the dialog is drawn.
 *
 * Writes into index.html, as `<meta>` elements `public/grading-screen-early.js` reads:
 * - `gradewise-grading-screen-files`: the files the grading screen's route and dialog import,
 *   directly or not, that the entry does not (the page loads those already);
 * - `gradewise-grading-screen-fonts`: the title's font file, which the route waits for (decision 0111);
 * - `gradewise-grading-screen-reads` and `…-queue-reads`: the session's check of the stored token
 *   and the screen's first reads (`gradingScreenFirstReads`, the route's loader's list), method and
 *   path with the ids as markers, the queue's apart (sent only with `?queue=1`);
 * - `gradewise-grading-screen-session`: the API's base, and the storage keys of the session's
 *   token and of the measuring switch that turns reading early off;
 * and loads that script (async, high priority), which on a grading screen's address only adds a
 * `modulepreload` link for each file, a font `preload` link for the title's font, and sends the reads, whose answers the app's API client takes.
 * Other pages load the small script and nothing else.
 */
export function gradingScreenFiles(): Plugin {
  return {
    name: 'gradewise:grading-screen-files',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) throw new Error('The grading screen files are listed from the build.');
        const files = gradingScreenFileList(bundle);
        const tags = earlyStartTags(
          files.map((file) => `/${file}`),
          [`/${titleFontFile(bundle)}`],
        );
        return html.replace('<title>', () => `${tags.trimStart()}    <title>`);
      },
    },
  };
}

/** The page's `<meta>` elements for public/grading-screen-early.js, and the script. */
export function earlyStartTags(files: string[], fonts: string[]): string {
  // The session's check of the stored token first (lib/session.tsx): every signed-in screen waits
  // for it, and the app sends it only once its entry has arrived and runs.
  const sessionCheck: FirstRead = { method: 'GET', path: authApiPaths.user };
  const screenReads = gradingScreenFirstReads(ID_MARKERS, false);
  const reads = [sessionCheck, ...screenReads];
  const queueReads = gradingScreenFirstReads(ID_MARKERS, true).slice(screenReads.length);
  const meta = (name: string, content: string) => `    <meta name="${name}" content="${content}" />\n`;
  return (
    meta('gradewise-grading-screen-files', files.join(' ')) +
    meta('gradewise-grading-screen-fonts', fonts.join(' ')) +
    meta('gradewise-grading-screen-reads', listed(reads)) +
    meta('gradewise-grading-screen-queue-reads', listed(queueReads)) +
    meta('gradewise-grading-screen-session', `${API_BASE} ${TOKEN_STORAGE_KEY} ${PREFETCH_OFF_STORAGE_KEY}`) +
    '    <script src="/grading-screen-early.js" async fetchpriority="high"></script>\n'
  );
}

/** The chunks the grading screen's modules import statically, directly or not, less the entry's own. */
export function gradingScreenFileList(bundle: Rollup.OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (roots: Rollup.OutputChunk[]) => {
    const seen = new Set<string>();
    const pending = roots.map((chunk) => chunk.fileName);
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      pending.push(...(byName.get(name)?.imports ?? []));
    }
    return seen;
  };
  const screenRoots = GRADING_SCREEN_MODULES.map((suffix) => {
    const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(suffix)));
    if (!chunk) throw new Error(`No chunk of the build holds ${suffix}.`);
    return chunk;
  });
  const entry = closure(chunks.filter((chunk) => chunk.isEntry));
  return [...closure(screenRoots)].filter((name) => !entry.has(name)).sort();
}

/**
 * Roboto Medium's Latin file: the grading screen's route mounts once the title's font has loaded
 * (`titleFontLoaded` in app/router.tsx, '500 20px Roboto'; the title is Latin text). Without the
 * early script the browser asks for it only when the route's code runs, after the entry's scripts
 * have arrived and run, and the screen's first view waited for it (decision 0111).
 */
const TITLE_FONT_FILE = /^assets\/roboto-latin-500-normal-[\w-]+\.woff2$/;

function titleFontFile(bundle: Rollup.OutputBundle): string {
  const found = Object.keys(bundle).filter((fileName) => TITLE_FONT_FILE.test(fileName));
  if (found.length !== 1) throw new Error(`Expected one file of Roboto Medium's Latin subset, found ${found.length}.`);
  return found[0]!;
}

/** "METHOD path METHOD path …" as an attribute's text: no path holds a space or a quote (apiPaths encodes the ids). */
function listed(reads: FirstRead[]): string {
  for (const { path } of reads) if (/[\s"'<>]/.test(path)) throw new Error(`${path} cannot be written into the page.`);
  return reads.map(({ method, path }) => `${method} ${path.replaceAll('&', '&amp;')}`).join(' ');
}
