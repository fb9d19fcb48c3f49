import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The committed core faces (scripts/subset-fonts.mjs, decision 0134) are cut from the installed
 * @fontsource/roboto's Latin files: after an upgrade of fontsource this fails until the script has
 * been run again, so the core and the Latin faces never come from two versions of Roboto.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const fontsourceDir = path.dirname(createRequire(import.meta.url).resolve('@fontsource/roboto/package.json'));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'roboto-core.json'), 'utf8')) as {
  fontsource: string;
  unicodeRange: string;
  faces: { weight: number; source: string; sourceSha256: string; file: string; sha256: string }[];
};
const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('Roboto core faces', () => {
  it('were cut from the installed fontsource Latin files', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(fontsourceDir, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.fontsource).toBe(installed.version);
    for (const face of manifest.faces)
      expect(sha256(path.join(fontsourceDir, face.source)), face.source).toBe(face.sourceSha256);
  });

  it('are the files the script wrote, and roboto-core.css declares each with the range', () => {
    const css = fs.readFileSync(path.join(here, 'roboto-core.css'), 'utf8').replace(/\s+/g, ' ');
    for (const face of manifest.faces) {
      expect(sha256(path.join(here, face.file)), face.file).toBe(face.sha256);
      expect(css).toContain(
        `font-weight: ${face.weight}; src: url(./${face.file}) format('woff2'); unicode-range: ${manifest.unicodeRange};`,
      );
    }
  });
});
