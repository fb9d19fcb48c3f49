import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FILES_THAT_CHANGE_PROCESS_STATE, PROCESS_STATE_SETTERS } from './support/shared-worker.ts';

/**
 * The PGlite server files share a worker's modules (decision 0098), which is safe only while no file
 * leaves the process changed for the next: a setting a module keeps for the process is undone by
 * test/support/shared-worker.ts for the files it lists, and a module mock is loaded afresh and
 * taken back by the file that makes it. A file that does either without that fails here, by name.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testFiles = fs
  .readdirSync(path.join(SERVER, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => `test/${file.split(path.sep).join('/')}`);
const textOf = (file: string) => fs.readFileSync(path.join(SERVER, file), 'utf8');

const settersCalledIn = (text: string) => PROCESS_STATE_SETTERS.filter((setter) => text.includes(`${setter}(`));

/** What a file that mocks a module lacks of the two resets a shared worker needs. */
function mockResetsMissing(text: string): string[] {
  if (!/\bvi\.(?:mock|doMock)\(/.test(text)) return [];
  const missing: string[] = [];
  const hoisted = /vi\.hoisted\(\(\) => \{[^]*?vi\.resetModules\(\)[^]*?\}\)/.test(text);
  if (!hoisted) missing.push('vi.resetModules() in vi.hoisted (its imports must load the app afresh, with the mock)');
  if (!/afterAll\([^]*?vi\.doUnmock\([^]*?vi\.resetModules\(\)/.test(text))
    missing.push('an afterAll with vi.doUnmock and vi.resetModules (the next file must get the real module)');
  return missing;
}

describe('what a server test file leaves behind in a shared worker', () => {
  it.each(testFiles.filter((file) => file !== 'test/shared-worker.test.ts'))('%s', (file) => {
    const text = textOf(file);
    if (!file.startsWith('test/support/') && settersCalledIn(text).length > 0) {
      expect(
        FILES_THAT_CHANGE_PROCESS_STATE,
        `${file} calls ${settersCalledIn(text).join(', ')}: list it in test/support/shared-worker.ts`,
      ).toContain(file);
    }
    expect(mockResetsMissing(text), `${file} mocks a module`).toEqual([]);
  });

  it('lists only files that exist and change a setting', () => {
    for (const file of FILES_THAT_CHANGE_PROCESS_STATE) {
      expect(testFiles, `${file} is listed but does not exist`).toContain(file);
      expect(settersCalledIn(textOf(file)), `${file} is listed but changes no setting`).not.toEqual([]);
    }
  });

  it('finds a mock without its resets', () => {
    const bare = `vi.mock('../src/x.ts', () => ({}));\nimport { x } from '../src/x.ts';`;
    expect(mockResetsMissing(bare)).toHaveLength(2);
    expect(mockResetsMissing(textOf('test/learning-from-grades.test.ts'))).toEqual([]);
  });
});
