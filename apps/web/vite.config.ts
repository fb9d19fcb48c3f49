import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Rollup } from 'vite';
import { gradingScreenFiles } from './build/grading-screen-files.ts';
import { inlineStylesheet } from './build/inline-stylesheet.ts';
import { muiPathImports } from './build/mui-path-imports.ts';
import { precompress } from './build/precompress.ts';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * MUI's styled engine calls emotion's `styled(tag, options)` and nothing else of `@emotion/styled`,
 * whose entry also builds a styled component for each of about 170 HTML and SVG tags (`styled.div`,
 * ...) as it loads: work in the entry's module evaluation, on every first visit (on the grading
 * screen its longest task, decision 0105). `@emotion/styled/base` is the same function without it.
 */
const emotionStyledBase = [{ find: /^@emotion\/styled$/, replacement: '@emotion/styled/base' }];

/** `zod` with `jitless` set before any schema is made: no eval probe under the CSP (src/lib/zod-jitless.ts). */
const zodJitless = [
  { find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-in-the-browser.ts', import.meta.url)) },
];

/**
 * The built app is served by the API process (apps/server/src/http/static-site.ts) under a strict
 * CSP (script-src 'self', connect-src 'self'), so everything is bundled: no CDN, no inline script.
 * In development, Vite serves the app and forwards /api to the API on port 3000.
 */
export default defineConfig(({ command }) => ({
  root: webRoot,
  resolve: {
    alias: [...emotionStyledBase, ...zodJitless, ...(command === 'build' ? reactRouterProductionBuild() : [])],
  },
  // muiPathImports: see its comment; it is what lets lazy screens keep their MUI components.
  plugins: [react(), muiPathImports(), inlineStylesheet(), gradingScreenFiles(), precompress()],
  // pdf.js starts its worker as a module worker (lib/pdf-worker-entry.ts).
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each screen loads, read by bench/first-route-js.ts.
    manifest: true,
    // Small images may be inlined; fonts never are. Roboto's Greek-extended files (under 4 KB) were
    // inlined as base64, woff2 and woff, for four weights: 28 KB of the stylesheet every first page
    // waits for, for glyphs almost no page shows. As files, the browser fetches a subset only when
    // a page uses a character of its unicode-range (decision 0044).
    assetsInlineLimit: (filePath) => (/\.(woff2?|ttf|otf|eot)$/.test(filePath) ? false : undefined),
    rollupOptions: {
      output: {
        // Libraries change less often than our code: separate chunks stay cached across releases
        // (libraryChunk below); the grading screen's frame has its own (gradingScreenChunks).
        // Only the modules named go into a named chunk: by default Rollup also puts there every
        // unnamed module a named one imports, and the grading screen's chunks would take the entry's
        // own modules (decisions 0051, 0053). The library chunks keep that rule (namedChunks).
        onlyExplicitManualChunks: true,
        manualChunks: (id, { getModuleInfo, getModuleIds }) => namedChunks(getModuleIds, getModuleInfo).get(id),
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
}));

/**
 * React Router's package exports its development build under every condition (`dist/development`;
 * its framework-mode Vite plugin is what switches to `dist/production`). The two differ only in
 * `ENABLE_DEV_WARNINGS`: the development build checks every route and render for mistakes and
 * carries the messages. The app is built with the production one; the dev server and the tests keep
 * the warnings.
 */
function reactRouterProductionBuild() {
  const packageDir = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  return [
    { find: /^react-router$/, replacement: path.join(packageDir, 'dist/production/index.mjs') },
    { find: /^react-router\/dom$/, replacement: path.join(packageDir, 'dist/production/dom-export.mjs') },
  ];
}

let chunkByModule: Map<string, string> | undefined;

/**
 * The named chunk of each module that has one, worked out once per build (the import graph is
 * complete when Rollup asks for chunks): the grading screen's frame, then the libraries', each of
 * which also takes the unnamed modules its modules import, directly or not, as Rollup's default did.
 */
function namedChunks(getModuleIds: () => IterableIterator<string>, getModuleInfo: Rollup.GetModuleInfo) {
  if (chunkByModule) return chunkByModule;
  const ids = [...getModuleIds()];
  const named = gradingScreenChunks(ids, getModuleInfo);
  const libraries = new Map<string, string>();
  for (const id of ids) {
    const name = named.has(id) ? undefined : libraryChunk(id, getModuleIds, getModuleInfo);
    if (name) libraries.set(id, name);
  }
  for (const [id, name] of libraries) named.set(id, name);
  for (const [id, name] of libraries) {
    const pending = [...(getModuleInfo(id)?.importedIds ?? [])];
    while (pending.length > 0) {
      const dependency = pending.pop()!;
      if (named.has(dependency)) continue;
      named.set(dependency, name);
      pending.push(...(getModuleInfo(dependency)?.importedIds ?? []));
    }
  }
  chunkByModule = named;
  return named;
}

/** A library's chunk, or undefined where Rollup places the module by what uses it. */
function libraryChunk(
  id: string,
  getModuleIds: () => IterableIterator<string>,
  getModuleInfo: Rollup.GetModuleInfo,
): string | undefined {
  if (!id.includes('node_modules')) return undefined;
  // pdf.js is big and only needed once someone opens a PDF: its own chunk, loaded on demand.
  if (/node_modules\/(pdfjs-dist|react-pdf)\//.test(id)) return 'pdf';
  // KaTeX is for rubric formulas only: its own chunk, loaded with the screens that show them.
  if (/node_modules\/(katex|rehype-katex|remark-math)\//.test(id)) return 'katex';
  if (/node_modules\/(react|react-dom|react-router|react-router-dom|scheduler)\//.test(id)) return 'react';
  // MUI and emotion are left to Rollup, which places each module by what really uses it:
  // the components the app shell uses land in the entry chunk, the others with the lazy
  // screens that use them. (A named 'mui' chunk took every MUI module the entry could reach
  // through a barrel such as @mui/system's index, MUI's Grid included, decision 0039.)
  if (/node_modules\/(@mui|@emotion)\//.test(id)) return undefined;
  // The other libraries every first page load runs. Named here, not left to Rollup: a library
  // that pdf.js shares with MUI (clsx) would otherwise be pulled into the 'pdf' chunk, and
  // every page would load pdf.js to get it.
  if (loadedWithEntry(getModuleIds, getModuleInfo).has(id)) return 'vendor';
  // Everything else (MUI components only a lazy screen uses, markdown…) stays where Rollup
  // puts it: with the lazy screens that use it, off the first route.
  return undefined;
}

let entryClosure: Set<string> | undefined;

/**
 * The modules the entry imports statically, directly or not: what every first page load runs.
 * Worked out once per build (the import graph is complete when Rollup asks for chunks).
 */
function loadedWithEntry(
  getModuleIds: () => IterableIterator<string>,
  getModuleInfo: Rollup.GetModuleInfo,
): Set<string> {
  if (entryClosure) return entryClosure;
  const seen = new Set<string>();
  const pending = [...getModuleIds()].filter((id) => getModuleInfo(id)?.isEntry);
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = getModuleInfo(id);
    // A library's index that only re-exports (@tanstack/react-query's, zod's) leads to every module
    // of the library, used or not; what the entry uses through it is placed by Rollup instead.
    if (info && id.includes('node_modules') && onlyReExports(info)) continue;
    pending.push(...(info?.importedIds ?? []));
  }
  entryClosure = seen;
  return seen;
}

/** A module with no exports of its own, only `export … from` other modules: a barrel. */
function onlyReExports(info: Rollup.ModuleInfo): boolean {
  const sources = Object.keys(info.exportedBindings ?? {});
  return sources.length > 0 && (info.exportedBindings?.['.'] ?? []).length === 0;
}

/** The grading screen's route module, which draws the screen's frame while the dialog loads. */
const GRADING_FRAME = '/src/app/routes/grade-submission-route.tsx';
/** The lazy screens of the first routes (bench/first-route-js.ts): their files are not regrouped. */
const FIRST_ROUTES = ['home-route', 'login-route', 'courses-route'].map((name) => `/src/app/routes/${name}.tsx`);

/**
 * The grading screen's frame in two chunks: 'grading-frame', the route module and the frame, and
 * 'grading-frame-helpers', the small modules it shares with other screens (useGoBack, the page
 * paths, formatPoints), which Rollup would otherwise put in as many chunks as there are sets of
 * screens sharing them. The frame is the screen's first paint (its title is the LCP): its seven
 * files took two rounds of the browser's six connections, four take one (decision 0053).
 *
 * Left out: what the entry, its lazy parts (the toast container, the phone menu) or a first route
 * (`/`, `/login`, `/courses`) imports, even through a library's index, so those pages load the same
 * code as before. Other screens that use one of the helpers load all three (under 1 KB gzip).
 */
function gradingScreenChunks(ids: string[], getModuleInfo: Rollup.GetModuleInfo): Map<string, string> {
  const find = (suffix: string) => ids.filter((candidate) => candidate.endsWith(suffix));
  const entries = ids.filter((candidate) => getModuleInfo(candidate)?.isEntry);
  const entryClosure = staticClosure(entries, getModuleInfo);
  // The app shell's own lazy parts (the toast container every page loads when idle, the phone menu).
  // The grading dialog is not one: the route table asks for it beside the grading route (decision 0085).
  const shellParts = [...entryClosure]
    .flatMap((id) => getModuleInfo(id)?.dynamicallyImportedIds ?? [])
    .filter((id) => !id.includes('/src/app/routes/') && !id.endsWith(GRADING_DIALOG));
  const elsewhere = staticClosure([...entries, ...shellParts, ...FIRST_ROUTES.flatMap(find)], getModuleInfo);
  const otherScreens = staticClosure(
    ids.filter((id) => id.includes('/src/app/routes/') && !id.endsWith(GRADING_FRAME)),
    getModuleInfo,
  );
  const chunks = new Map<string, string>();
  for (const module of staticClosure(find(GRADING_FRAME), getModuleInfo)) {
    if (elsewhere.has(module)) continue;
    chunks.set(module, otherScreens.has(module) ? 'grading-frame-helpers' : 'grading-frame');
  }
  // The dialog's own files (about 45, most of them small MUI modules) in two chunks: the screen's
  // first paint waited for eight rounds of the browser's six connections, one after the other
  // (decision 0079). What another screen or its lazy parts also import goes in 'grading-dialog-shared',
  // so those screens do not load the dialog's own code; the libraries kept apart (pdf.js, KaTeX) stay apart.
  const elsewhereLazily = dynamicClosure(
    ids.filter((id) => id.includes('/src/app/routes/') && !id.endsWith(GRADING_FRAME)),
    getModuleInfo,
  );
  for (const module of staticClosure(find(GRADING_DIALOG), getModuleInfo)) {
    if (elsewhere.has(module) || chunks.has(module) || KEPT_APART.test(module)) continue;
    chunks.set(module, elsewhereLazily.has(module) ? 'grading-dialog-shared' : 'grading-dialog');
  }
  return chunks;
}

/** The grading dialog, which the grading screen's route loads as its frame is drawn. */
const GRADING_DIALOG = '/src/features/grading/components/grading-dialog.tsx';
/** Libraries with chunks of their own (libraryChunk), never regrouped with a screen. */
const KEPT_APART = /node_modules\/(pdfjs-dist|react-pdf|katex|rehype-katex|remark-math)\//;

/** Like staticClosure, and through dynamic imports too: every module `roots` may ever load. */
function dynamicClosure(roots: string[], getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = getModuleInfo(id);
    pending.push(...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? []));
  }
  return seen;
}

/** Every module `roots` import statically, directly or not, libraries' index files followed too. */
function staticClosure(roots: string[], getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}
