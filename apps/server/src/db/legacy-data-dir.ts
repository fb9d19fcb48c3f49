import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { REPO_ROOT } from '../config.ts';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

/**
 * Where `npm start` kept its data before the data directory was resolved from the repository root:
 * it ran the server from apps/server, so the default `./data` landed in apps/server/data while the
 * README (and `npm run demo`, run from the root) said ./data. See docs/decisions/0027.
 */
export const LEGACY_DATA_DIR = path.join(REPO_ROOT, 'apps', 'server', 'data');

export interface LegacyDataDirInput {
  /** The data directory in use (the default, `<repo>/data`). */
  dataDir: string;
  /** Only a default data directory adopts the old one: an explicit DATA_DIR is the owner's choice. */
  isDefault: boolean;
  legacyDir?: string;
  log: Pick<Logger, 'warn'>;
}

/**
 * Moves the data an older version left in apps/server/data to the data directory, once, saying so
 * in the log: a user's courses and grades must neither vanish (a fresh empty ./data) nor move
 * without a word. Nothing moves when the data directory already exists (both are kept, and a
 * warning names the unused one), or while another process holds the old directory's lock.
 */
export function adoptLegacyDataDir({ dataDir, isDefault, legacyDir = LEGACY_DATA_DIR, log }: LegacyDataDirInput): void {
  if (!isDefault || path.resolve(legacyDir) === path.resolve(dataDir) || !fs.existsSync(legacyDir)) return;
  if (fs.existsSync(dataDir)) {
    log.warn(
      `${legacyDir} holds data of an older Gradewise and is not used: the data directory is ${dataDir}. ` +
        `To use the old data instead, stop Gradewise and replace ${dataDir} with it (or set DATA_DIR=${legacyDir}).`,
    );
    return;
  }
  // A process of an older version may still be running on the old directory: moving it under a
  // live database would lose data, so its lock is taken first (this throws while it is held).
  try {
    lockDataDir(legacyDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new DataDirLockedError(
      `${error.message}\nThe data directory is now ${dataDir} (the repository's ./data); ` +
        `once that process has stopped, the next start moves ${legacyDir} there.`,
    );
  }
  const lockFile = path.join(legacyDir, 'gradewise.lock');
  try {
    fs.renameSync(legacyDir, dataDir);
  } catch (error) {
    fs.rmSync(lockFile, { force: true });
    throw new DataDirLockedError(
      `Gradewise cannot start: the data of an older version in ${legacyDir} could not be moved to ${dataDir} ` +
        `(${(error as Error).message}). Move it yourself, or set DATA_DIR=${legacyDir} to keep using it there.`,
    );
  }
  // The lock moved with the directory; the caller takes the data directory's own lock next.
  fs.rmSync(path.join(dataDir, 'gradewise.lock'), { force: true });
  log.warn(
    `Moved the data directory from ${legacyDir} to ${dataDir}, where Gradewise keeps its data from now on ` +
      '(an older version kept it under apps/server when started with npm start).',
  );
}
