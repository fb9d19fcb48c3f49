import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type FileLocation = 'local' | 's3';

/** A stored file being read: its bytes as a stream (never the whole file in memory) and its size. */
export interface StoredStream {
  body: Readable;
  size: number;
}

/** A blob as a listing sees it: the orphan sweep deletes those no row names, past a grace period. */
export interface ListedBlob {
  storageKey: string;
  lastModified: Date;
  size: number;
}

/**
 * Where file contents live. Rows in `files` point here by `storageKey`. The local-disk default
 * keeps blobs under DATA_DIR/files; S3Storage (storage/s3-storage.ts) keeps them in an
 * S3-compatible bucket that several processes share (decision 0071).
 *
 * A missing blob is an error whose `code` is 'ENOENT' (`isMissingBlob`), whichever the storage; a
 * storage that cannot be reached is an AppError 'UNAVAILABLE' (503) that says why.
 */
export interface FileStorage {
  /** Which storage this is, for logs and readiness ("local disk at ...", "S3 bucket ..."). */
  readonly description: string;
  /** Where `put` writes: recorded on each file row (`files.location`). */
  readonly location: FileLocation;
  /**
   * Writes `size` bytes read from `body` under a new random key and returns the key. A stream, not
   * a buffer: an upload goes from its temporary file to the storage without being held in memory
   * (decision 0082). Resolves only once the whole blob is stored; a body that ends short or fails
   * leaves no blob.
   */
  put(body: Readable, size: number): Promise<string>;
  /** The same under a key the file already has (the move to S3, a restore). */
  putAt(storageKey: string, body: Readable, size: number): Promise<void>;
  /** The whole blob in memory: for the readers that need all of it (text extraction, backups), never for a download. */
  get(storageKey: string): Promise<Buffer>;
  /** The blob as a stream, for downloads. */
  open(storageKey: string): Promise<StoredStream>;
  delete(storageKey: string): Promise<void>;
  exists(storageKey: string): Promise<boolean>;
  /** Every stored blob with its write time (the orphan sweep). */
  list(): AsyncIterable<ListedBlob>;
  /** Readiness: resolves when the storage can be used, throws a sentence saying what is wrong otherwise. */
  check(): Promise<void>;
}

/** The error every storage throws for a key with no blob. */
export function missingBlob(storageKey: string): Error {
  return Object.assign(new Error(`No stored file has the key ${storageKey}`), { code: 'ENOENT' });
}

export function isMissingBlob(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export class LocalDiskStorage implements FileStorage {
  readonly location = 'local' as const;

  constructor(private readonly root: string) {}

  get description(): string {
    return `local disk at ${this.root}`;
  }

  async open(storageKey: string): Promise<StoredStream> {
    const target = this.resolve(storageKey);
    const handle = await fs.open(target, 'r');
    try {
      const { size } = await handle.stat();
      return { body: createReadStream('', { fd: handle, autoClose: true }), size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async check(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root, fs.constants.R_OK | fs.constants.W_OK);
  }

  async put(body: Readable, size: number): Promise<string> {
    // Random key, fanned out in two-character folders; never derived from the client's filename.
    const key = randomBytes(16).toString('hex');
    await this.putAt(key, body, size);
    return key;
  }

  async putAt(storageKey: string, body: Readable, size: number): Promise<void> {
    const target = this.resolve(storageKey);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a reader never sees half a file. A write that fails is removed here; one
    // a killed process left is removed by the orphan sweep (`sweepPartialWrites`).
    const temp = `${target}.${randomBytes(4).toString('hex')}${PARTIAL_WRITE_SUFFIX}`;
    try {
      await pipeline(body, createWriteStream(temp, { mode: 0o600 }));
      const written = (await fs.stat(temp)).size;
      if (written !== size)
        throw new Error(`The stored file ${storageKey} has ${written} bytes, ${size} were expected.`);
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async *list(): AsyncGenerator<ListedBlob> {
    for (const { name, full } of await this.entries()) {
      if (!STORAGE_KEY.test(name)) continue;
      const stat = await fs.stat(full).catch(() => undefined);
      if (stat) yield { storageKey: name, lastModified: stat.mtime, size: stat.size };
    }
  }

  /** Removes the partial writes (`put` cut off by a killed process) older than `olderThan`; how many. */
  async sweepPartialWrites(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const { name, full } of await this.entries()) {
      if (!name.endsWith(PARTIAL_WRITE_SUFFIX)) continue;
      const stat = await fs.stat(full).catch(() => undefined);
      if (!stat || stat.mtime >= olderThan) continue;
      await fs.rm(full, { force: true });
      removed += 1;
    }
    return removed;
  }

  /** Every file in the two-character folders under the root. */
  private async entries(): Promise<{ name: string; full: string }[]> {
    const found: { name: string; full: string }[] = [];
    const folders = await fs.readdir(this.root, { withFileTypes: true }).catch(() => []);
    for (const folder of folders) {
      if (!folder.isDirectory() || !/^[0-9a-f]{2}$/.test(folder.name)) continue;
      const inside = path.join(this.root, folder.name);
      for (const name of await fs.readdir(inside).catch(() => [])) found.push({ name, full: path.join(inside, name) });
    }
    return found;
  }

  get(storageKey: string): Promise<Buffer> {
    return fs.readFile(this.resolve(storageKey));
  }

  async delete(storageKey: string): Promise<void> {
    await fs.rm(this.resolve(storageKey), { force: true });
  }

  async exists(storageKey: string): Promise<boolean> {
    try {
      await fs.access(this.resolve(storageKey));
      return true;
    } catch {
      return false;
    }
  }

  private resolve(storageKey: string): string {
    return localBlobPath(this.root, storageKey);
  }
}

const STORAGE_KEY = /^[0-9a-f]{32}$/;
const PARTIAL_WRITE_SUFFIX = '.tmp';

/** Where LocalDiskStorage keeps a blob under `root`. */
export function localBlobPath(root: string, storageKey: string): string {
  if (!STORAGE_KEY.test(storageKey)) throw new Error(`Invalid storage key: ${storageKey}`);
  return path.join(root, storageKey.slice(0, 2), storageKey);
}
