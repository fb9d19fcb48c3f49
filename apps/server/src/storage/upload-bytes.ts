import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The bytes of an upload between the request and the storage (decision 0082). An upload arrives
 * as a stream and is written to a temporary file as it arrives (`spoolUpload`), its size and
 * sha256 counted on the way, so a request's body is never gathered in memory however slowly it
 * comes; the checks read only the bytes they need, and the storage reads a new stream of it.
 * Files the app writes itself (the demo course) are already in memory: `bytesInMemory`.
 */
export interface UploadBytes {
  readonly size: number;
  readonly sha256: string;
  /** The bytes from the first, as a new stream each call (the storage's put reads one). */
  stream(): Readable;
  /** Up to `length` bytes from `start`: the type checks read only a file's first and last bytes. */
  slice(start: number, length: number): Promise<Buffer>;
  /**
   * The whole file in memory, for the parsers that need all of it at once (pdf-lib's active-content
   * scan, the spreadsheet reader): the caller holds it only while it parses.
   */
  readWhole(): Promise<Buffer>;
}

export function bytesInMemory(bytes: Uint8Array): UploadBytes {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    size: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
    stream: () => Readable.from([content]),
    slice: async (start, length) => content.subarray(start, start + length),
    readWhole: async () => content,
  };
}

/** An upload waiting in a temporary file of this process; `discard` removes it (the request's end does). */
export class SpooledUpload implements UploadBytes {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly sha256: string,
  ) {}

  stream(): Readable {
    return createReadStream(this.path);
  }

  async slice(start: number, length: number): Promise<Buffer> {
    const handle = await fs.open(this.path, 'r');
    try {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, this.size - start)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  readWhole(): Promise<Buffer> {
    return fs.readFile(this.path);
  }

  async discard(): Promise<void> {
    await fs.rm(this.path, { force: true });
  }
}

/** Temporary files of uploads end so: the local orphan sweep recognises those a killed process left. */
const SPOOL_SUFFIX = '.upload';

/**
 * Writes `source` to a new temporary file in `dir` as it arrives, counting its size and sha256.
 * If the stream fails (the client went away, the body was malformed), the partial file is removed
 * before the error goes on: nothing half-written stays.
 */
export async function spoolUpload(source: Readable, dir: string): Promise<SpooledUpload> {
  await fs.mkdir(dir, { recursive: true });
  const target = path.join(dir, `${randomBytes(16).toString('hex')}${SPOOL_SUFFIX}`);
  const hash = createHash('sha256');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(target, { mode: 0o600 }));
  } catch (error) {
    await fs.rm(target, { force: true });
    throw error;
  }
  return new SpooledUpload(target, size, hash.digest('hex'));
}

/**
 * Removes uploads older than `olderThan` from `dir`: a request's own are removed when it ends
 * (`withMultipartForm`), so these are what a killed process left. Returns how many.
 */
export async function sweepLeftoverUploads(dir: string, olderThan: Date): Promise<number> {
  let removed = 0;
  for (const name of await fs.readdir(dir).catch(() => [])) {
    if (!name.endsWith(SPOOL_SUFFIX)) continue;
    const full = path.join(dir, name);
    const stat = await fs.stat(full).catch(() => undefined);
    if (!stat || stat.mtime >= olderThan) continue;
    await fs.rm(full, { force: true });
    removed += 1;
  }
  return removed;
}
