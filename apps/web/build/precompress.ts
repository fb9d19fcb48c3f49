import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing; images, woff/woff2 fonts and PDFs are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|map|ttf|otf|eot|wasm)$/;

/**
 * Writes `NAME.br` (brotli, best quality) and `NAME.gz` (gzip, level 9) beside each text file of
 * the build, once, at build time. The server (apps/server/src/http/static-site.ts) sends the copy
 * the browser accepts, so no asset is compressed per request. A copy that would not be smaller is
 * not written; the server then sends the file itself.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'gradewise:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file of the build (public/ included) is written.
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(files.map(writeCompressedCopies));
    },
  };
}

async function writeCompressedCopies(file: string): Promise<void> {
  const original = await fs.readFile(file);
  const copies: [string, Buffer][] = [
    [
      `${file}.br`,
      await brotli(original, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: original.length,
        },
      }),
    ],
    [`${file}.gz`, await gzip(original, { level: zlib.constants.Z_BEST_COMPRESSION })],
  ];
  // Both copies or neither: a browser that accepts brotli must never be sent the gzip copy because
  // brotli's few bytes of framing made its copy of a tiny file no smaller than the original.
  if (copies.some(([, bytes]) => bytes.length < original.length))
    for (const [copyPath, bytes] of copies) await fs.writeFile(copyPath, bytes);
}
