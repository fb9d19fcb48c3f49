import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where file contents live. Rows in `files` point here by `storageKey`. The local-disk default
 * keeps blobs under DATA_DIR/files; a shared-storage implementation (NFS, S3-compatible) only has to
 * provide these four calls for several processes to share files.
 */
export interface FileStorage {
  put(content: Buffer): Promise<string>;
  get(storageKey: string): Promise<Buffer>;
  delete(storageKey: string): Promise<void>;
  exists(storageKey: string): Promise<boolean>;
}

export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

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
