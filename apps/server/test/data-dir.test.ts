import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, loadConfig } from '../src/config.ts';
import { DataDirLockedError } from '../src/db/data-dir-lock.ts';
import { LEGACY_DATA_DIR, adoptLegacyDataDir } from '../src/db/legacy-data-dir.ts';

/**
 * Issue 14, "Install and run" 3: the README says data lives in ./data, but `npm start` (run from
 * apps/server) put it in apps/server/data. The data directory is now taken from the repository root
 * whatever the current directory, and the data an older version left under apps/server is moved
 * once, with a log line, never silently and never under a live process.
 */

const dirs: string[] = [];
const scratch = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-datadir-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function recordingLog() {
  const lines: string[] = [];
  return { lines, log: { warn: (line: string) => void lines.push(line) } as never };
}

describe('the data directory', () => {
  it('is the repository root ./data by default, and a relative DATA_DIR is taken from the root too', () => {
    expect(fs.existsSync(path.join(REPO_ROOT, 'README.md'))).toBe(true);
    expect(fs.existsSync(path.join(REPO_ROOT, 'apps', 'server', 'src', 'config.ts'))).toBe(true);
    const defaults = loadConfig({});
    expect(defaults.dataDir).toBe(path.join(REPO_ROOT, 'data'));
    expect(defaults.filesDir).toBe(path.join(REPO_ROOT, 'data', 'files'));
    expect(defaults.dataDirIsDefault).toBe(true);
    const relative = loadConfig({ DATA_DIR: './demo-data' });
    expect(relative.dataDir).toBe(path.join(REPO_ROOT, 'demo-data'));
    expect(relative.dataDirIsDefault).toBe(false);
    const absolute = scratch();
    expect(loadConfig({ DATA_DIR: absolute }).dataDir).toBe(absolute);
    expect(LEGACY_DATA_DIR).toBe(path.join(REPO_ROOT, 'apps', 'server', 'data'));
  });
});

describe('data left in apps/server/data by an older version', () => {
  const layout = () => {
    const root = scratch();
    const legacyDir = path.join(root, 'apps-server-data');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(path.join(legacyDir, 'files'), { recursive: true });
    fs.writeFileSync(path.join(legacyDir, 'token-secret'), 'old secret');
    fs.writeFileSync(path.join(legacyDir, 'files', 'answer.pdf'), 'old file');
    return { legacyDir, dataDir };
  };

  it('is moved to the data directory once, whole, with a log line naming both', () => {
    const { legacyDir, dataDir } = layout();
    const { lines, log } = recordingLog();
    adoptLegacyDataDir({ dataDir, isDefault: true, legacyDir, log });
    expect(fs.existsSync(legacyDir)).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, 'token-secret'), 'utf8')).toBe('old secret');
    expect(fs.readFileSync(path.join(dataDir, 'files', 'answer.pdf'), 'utf8')).toBe('old file');
    // No lock is left behind for the data directory's own lock to trip on.
    expect(fs.readdirSync(dataDir).sort()).toEqual(['files', 'token-secret']);
    expect(lines).toEqual([expect.stringContaining(`Moved the data directory from ${legacyDir} to ${dataDir}`)]);

    adoptLegacyDataDir({ dataDir, isDefault: true, legacyDir, log });
    expect(lines).toHaveLength(1);
  });

  it('is left in place, with a warning, when the data directory already exists', () => {
    const { legacyDir, dataDir } = layout();
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'token-secret'), 'new secret');
    const { lines, log } = recordingLog();
    adoptLegacyDataDir({ dataDir, isDefault: true, legacyDir, log });
    expect(fs.readFileSync(path.join(legacyDir, 'token-secret'), 'utf8')).toBe('old secret');
    expect(fs.readFileSync(path.join(dataDir, 'token-secret'), 'utf8')).toBe('new secret');
    expect(lines).toEqual([expect.stringContaining(`${legacyDir} holds data of an older Gradewise and is not used`)]);
  });

  it('is left alone when DATA_DIR is set explicitly', () => {
    const { legacyDir, dataDir } = layout();
    const { lines, log } = recordingLog();
    adoptLegacyDataDir({ dataDir, isDefault: false, legacyDir, log });
    expect(fs.existsSync(path.join(legacyDir, 'token-secret'))).toBe(true);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(lines).toEqual([]);
  });

  it('is not moved while a live process holds it: the start is refused with a message saying what will happen', () => {
    const { legacyDir, dataDir } = layout();
    fs.writeFileSync(path.join(legacyDir, 'gradewise.lock'), String(process.ppid));
    const { log } = recordingLog();
    const start = () => adoptLegacyDataDir({ dataDir, isDefault: true, legacyDir, log });
    expect(start).toThrow(DataDirLockedError);
    expect(start).toThrow(`once that process has stopped, the next start moves ${legacyDir} there`);
    expect(fs.readFileSync(path.join(legacyDir, 'gradewise.lock'), 'utf8')).toBe(String(process.ppid));
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
