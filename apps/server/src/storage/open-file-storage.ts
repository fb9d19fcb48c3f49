import type { Readable } from 'node:stream';
import {
  LocalDiskStorage,
  isMissingBlob,
  type FileStorage,
  type ListedBlob,
  type StoredStream,
} from './file-storage.ts';
import { S3Storage, type S3Settings } from './s3-storage.ts';

/**
 * Local disk under DATA_DIR/files (the default), or the S3-compatible bucket S3_BUCKET names
 * (config.ts). With a bucket, a blob the bucket does not have is looked for on this process's
 * local disk too: files uploaded before the switch keep opening while `npm run files:to-s3` copies
 * them (and on a machine that never had them, they are missing as before).
 */
export function openFileStorage(config: { s3?: S3Settings; filesDir: string }): FileStorage {
  return config.s3
    ? new BucketWithLocalFallback(new S3Storage(config.s3), new LocalDiskStorage(config.filesDir))
    : new LocalDiskStorage(config.filesDir);
}

/** The bucket behind a storage, when it has one (the orphan sweep and the move to S3 list and write it). */
export function bucketOf(storage: FileStorage): S3Storage | undefined {
  if (storage instanceof S3Storage) return storage;
  if (storage instanceof BucketWithLocalFallback) return storage.bucket;
  return undefined;
}

/** The local disk behind a storage, when it has one (the orphan sweep removes its partial writes). */
export function localDiskOf(storage: FileStorage): LocalDiskStorage | undefined {
  if (storage instanceof LocalDiskStorage) return storage;
  if (storage instanceof BucketWithLocalFallback) return storage.local;
  return undefined;
}

/** Releases what a storage holds open (the S3 client's sockets); nothing for local disk. */
export function closeFileStorage(storage: FileStorage): void {
  bucketOf(storage)?.close();
}

class BucketWithLocalFallback implements FileStorage {
  readonly location = 's3' as const;

  constructor(
    readonly bucket: S3Storage,
    readonly local: LocalDiskStorage,
  ) {}

  get description(): string {
    return this.bucket.description;
  }

  put(body: Readable, size: number): Promise<string> {
    return this.bucket.put(body, size);
  }

  putAt(storageKey: string, body: Readable, size: number): Promise<void> {
    return this.bucket.putAt(storageKey, body, size);
  }

  /** The bucket's objects, then what is left on this process's disk (blobs not yet moved, or left over). */
  async *list(): AsyncGenerator<ListedBlob> {
    yield* this.bucket.list();
    yield* this.local.list();
  }

  get(storageKey: string): Promise<Buffer> {
    return this.bucket.get(storageKey).catch((error: unknown) => {
      if (isMissingBlob(error)) return this.local.get(storageKey);
      throw error;
    });
  }

  open(storageKey: string): Promise<StoredStream> {
    return this.bucket.open(storageKey).catch((error: unknown) => {
      if (isMissingBlob(error)) return this.local.open(storageKey);
      throw error;
    });
  }

  async delete(storageKey: string): Promise<void> {
    await this.bucket.delete(storageKey);
    await this.local.delete(storageKey);
  }

  async exists(storageKey: string): Promise<boolean> {
    return (await this.bucket.exists(storageKey)) || (await this.local.exists(storageKey));
  }

  check(): Promise<void> {
    return this.bucket.check();
  }
}
