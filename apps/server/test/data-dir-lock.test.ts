import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecret } from '../src/auth/secret.ts';
import { DataDirLockedError, lockDataDir } from '../src/db/data-dir-lock.ts';

/**
 * The files a process creates in the data directory at start: the embedded database's lock and the
 * generated token secret. Both are created whole (written aside, then linked into place), so a
 * process starting at the same moment never reads them half-written. These tests cover the
 * outcomes; scale-out.test.ts starts real processes together.
 */

const dirs: string[] = [];
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-lock-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('data directory lock', () => {
  it('is taken with our pid, leaves no other file behind, and is released', () => {
    const dir = dataDir();
    const release = lockDataDir(dir);
    expect(fs.readdirSync(dir)).toEqual(['gradewise.lock']);
    expect(fs.readFileSync(path.join(dir, 'gradewise.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses to start while a live process holds it, naming the process and the directory', () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, 'gradewise.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(`another Gradewise process (pid ${process.ppid}) is already using`);
    expect(fs.readFileSync(path.join(dir, 'gradewise.lock'), 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process that is gone, or left empty by an older version', () => {
    for (const leftOver of [String(deadPid()), '']) {
      const dir = dataDir();
      fs.writeFileSync(path.join(dir, 'gradewise.lock'), leftOver);
      const release = lockDataDir(dir);
      expect(fs.readFileSync(path.join(dir, 'gradewise.lock'), 'utf8')).toBe(String(process.pid));
      release();
    }
  });
});

describe('generated token secret', () => {
  it('is created once, whole, and read back the same by every later start', () => {
    const dir = dataDir();
    const first = loadOrCreateSecret(dir);
    const second = loadOrCreateSecret(dir);
    expect(Buffer.from(first).toString()).toMatch(/^[\w-]{64}$/);
    expect(second).toEqual(first);
    expect(fs.readdirSync(dir)).toEqual(['token-secret']);
    expect(fs.statSync(path.join(dir, 'token-secret')).mode & 0o777).toBe(0o600);
  });

  it('is not generated when TOKEN_SECRET is configured', () => {
    const dir = dataDir();
    expect(Buffer.from(loadOrCreateSecret(dir, 'x'.repeat(40))).toString()).toBe('x'.repeat(40));
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
