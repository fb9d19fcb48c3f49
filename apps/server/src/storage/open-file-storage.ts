import { LocalDiskStorage, type FileStorage } from './file-storage.ts';
import { S3Storage, type S3Settings } from './s3-storage.ts';

/** Local disk under DATA_DIR/files (the default), or the S3-compatible bucket S3_BUCKET names (config.ts). */
export function openFileStorage(config: { s3?: S3Settings; filesDir: string }): FileStorage {
  return config.s3 ? new S3Storage(config.s3) : new LocalDiskStorage(config.filesDir);
}

/** Releases what a storage holds open (the S3 client's sockets); nothing for local disk. */
export function closeFileStorage(storage: FileStorage): void {
  if (storage instanceof S3Storage) storage.close();
}
