import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export type FileLocation = 'local' | 's3';

/** A stored file being read: its bytes as a stream (never the whole file in memory) and its size. */
export interface StoredStream {
  body: Readable;
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
  put(content: Buffer): Promise<string>;
  get(storageKey: string): Promise<Buffer>;
  /** The blob as a stream, for downloads. */
  open(storageKey: string): Promise<StoredStream>;
  delete(storageKey: string): Promise<void>;
  exists(storageKey: string): Promise<boolean>;
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

  async put(content: Buffer): Promise<string> {
    // Random key, fanned out in two-character folders; never derived from the client's filename.
    const key = randomBytes(16).toString('hex');
    const target = this.resolve(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a reader never sees half a file and a crash leaves no partial blob.
    const temp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(temp, content, { mode: 0o600 });
    await fs.rename(temp, target);
    return key;
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

/** Where LocalDiskStorage keeps a blob under `root` (restore writes blobs back to the same place). */
export function localBlobPath(root: string, storageKey: string): string {
  if (!/^[0-9a-f]{32}$/.test(storageKey)) throw new Error(`Invalid storage key: ${storageKey}`);
  return path.join(root, storageKey.slice(0, 2), storageKey);
}
