/**
 * First-route JavaScript, gzip bytes, against the 200 KB goal (issue 11, decision 0020): the
 * entry chunk and everything it imports statically, plus the lazy screen of each first route and
 * its static imports, read from the build's manifest. The bytes are the .gz copies the build wrote
 * (what the server sends a browser that accepts gzip; brotli is smaller still).
 *
 *   npm run build -w @gradewise/web && npx tsx bench/first-route-js.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const GOAL_BYTES = 200 * 1024;
const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Each first route and the module of its lazy screen. */
const FIRST_ROUTES: Record<string, string> = {
  '/': 'src/app/routes/home-route.tsx',
  '/login': 'src/app/routes/login-route.tsx',
  '/courses': 'src/app/routes/courses-route.tsx',
};

function staticClosure(manifest: Manifest, key: string, into: Set<string>): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

function sentBytes(file: string, suffix: '.gz' | '.br'): number {
  const compressed = path.join(distDir, `${file}${suffix}`);
  return fs.statSync(fs.existsSync(compressed) ? compressed : path.join(distDir, file)).size;
}

export function firstRouteJs(): { route: string; bytes: number; brotliBytes: number; files: number }[] {
  const manifestPath = path.join(distDir, '.vite/manifest.json');
  if (!fs.existsSync(manifestPath)) throw new Error(`No ${manifestPath}: run "npm run build -w @gradewise/web" first.`);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('The manifest names no entry chunk.');
  return Object.entries(FIRST_ROUTES).map(([route, screen]) => {
    const keys = staticClosure(manifest, entry, new Set());
    if (screen) {
      if (!manifest[screen]) throw new Error(`The build has no chunk for ${screen}.`);
      staticClosure(manifest, screen, keys);
    }
    const files = [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
    const total = (suffix: '.gz' | '.br') => files.reduce((sum, file) => sum + sentBytes(file, suffix), 0);
    return { route, bytes: total('.gz'), brotliBytes: total('.br'), files: files.length };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const { route, bytes, brotliBytes, files } of firstRouteJs()) {
    const verdict = bytes <= GOAL_BYTES ? 'within' : 'OVER';
    console.log(
      `${route.padEnd(9)} ${kb(bytes).padStart(9)} gzip (${kb(brotliBytes)} brotli) in ${files} JS files: ${verdict} the ${kb(GOAL_BYTES)} gzip goal`,
    );
  }
}
