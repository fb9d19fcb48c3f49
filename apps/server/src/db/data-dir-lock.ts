import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * PGlite has no inter-process locking: two processes writing one data directory silently lose
 * committed rows. So the embedded mode takes an exclusive lock file holding our pid and refuses
 * to start while another live process holds it. A lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'gradewise.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if (createHoldingPid(lockPath)) {
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone: nothing to release
        }
      };
    }
    const holderText = readOrEmpty(lockPath);
    const holder = Number.parseInt(holderText, 10);
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DataDirLockedError(
        `Gradewise cannot start: another Gradewise process (pid ${holder}) is already using the data directory ${dataDir}.\n` +
          'Two processes on one embedded database lose data. Stop the other process, choose another DATA_DIR, ' +
          'or set DATABASE_URL to run several processes on PostgreSQL.',
      );
    }
    // Stale lock from a process that is gone: remove it (unless another starting process just
    // replaced it) and try once more.
    if (readOrEmpty(lockPath) === holderText) fs.rmSync(lockPath, { force: true });
  }
  throw new DataDirLockedError(`Gradewise cannot start: could not lock the data directory ${dataDir}.`);
}

/**
 * Creates the lock file already holding our pid, or returns false when it exists. The pid is
 * written under a name of our own and then linked into place (link() fails if the lock exists):
 * a lock file is never seen empty, so a process starting at the same moment cannot mistake a lock
 * being written for a stale one and take it too.
 */
function createHoldingPid(lockPath: string): boolean {
  const draftPath = `${lockPath}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draftPath, String(process.pid), { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(draftPath, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(draftPath, { force: true });
  }
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
