import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { AppError } from '../lib/errors.ts';
import { missingBlob, type FileStorage, type ListedBlob, type StoredStream } from './file-storage.ts';

/** Where S3_* points (config.ts). Without keys, the SDK's own chain (instance role, AWS_* variables) is used. */
export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Connecting and one request: a storage server that does not answer fails the request (503), it does not hang it. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph, ...): every process that points at
 * the same bucket sees the same files, so API servers and workers need no shared disk (decision
 * 0071). Keys are the same random 32-hex-digit keys LocalDiskStorage uses, fanned out the same way
 * (`ab/abcdef...`). Whatever the bucket answers is turned into a sentence: an unreachable server, a
 * missing bucket or refused credentials is a 503 that names the cause (and the variable at fault),
 * an absent object is a missing blob (404 at the file route), never a 500 with an SDK trace.
 */
export class S3Storage implements FileStorage {
  readonly location = 's3' as const;
  readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
      // Checksums only where the service asks for them: MinIO, Garage and older servers do not all
      // understand the CRC headers SDK versions after 3.729 send by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get description(): string {
    return `S3 bucket "${this.settings.bucket}"${this.settings.endpoint ? ` at ${this.settings.endpoint}` : ''}`;
  }

  async put(body: Readable, size: number): Promise<string> {
    const key = randomBytes(16).toString('hex');
    await this.putAt(key, body, size);
    return key;
  }

  /**
   * One PUT whose body is read from the stream as it is sent (its length is known, so no multipart
   * upload is needed up to S3's 5 GB for one PUT). S3 stores an object only once its whole body has
   * arrived: a body that ends short or fails stores nothing. A stream cannot be read twice, so the
   * SDK's second attempt cannot resend it: a put that fails once is a 503, and the client uploads again.
   */
  async putAt(key: string, body: Readable, size: number): Promise<void> {
    await this.guard(() =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.settings.bucket,
          Key: objectKey(key),
          Body: body,
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      ),
    );
  }

  async get(storageKey: string): Promise<Buffer> {
    const { body } = await this.open(storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(storageKey: string): Promise<StoredStream> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: objectKey(storageKey) }),
      );
      return { body: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) throw missingBlob(storageKey);
      throw this.explain(error);
    }
  }

  async delete(storageKey: string): Promise<void> {
    // S3 answers a delete of an absent key with success: deleting twice is fine, as on disk.
    await this.guard(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: objectKey(storageKey) })),
    );
  }

  async exists(storageKey: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: objectKey(storageKey) }));
      return true;
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw this.explain(error);
    }
  }

  /**
   * Readiness: the bucket answers a listing with these credentials. Resolves with nothing, or
   * throws the 503 whose message says what is wrong. A listing (not HEAD) because its error answer
   * has a body, so a missing bucket and each kind of refused credential can be told apart.
   * (s3rver 3.7.1 answers a MaxKeys smaller than the bucket's listing with an InternalError.)
   */
  async check(): Promise<void> {
    // Under a prefix no object has: the answer is empty however large the bucket.
    await this.guard(() =>
      this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: 'readiness-probe/', MaxKeys: 1 }),
      ),
    );
  }

  /** Every stored key with its upload time, for the orphan sweep and the migration. */
  async *list(): AsyncGenerator<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.guard(() =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.settings.bucket, ContinuationToken: token, MaxKeys: 1000 }),
        ),
      );
      for (const item of page.Contents ?? []) {
        const storageKey = item.Key?.split('/').at(-1);
        if (storageKey && /^[0-9a-f]{32}$/.test(storageKey))
          yield { storageKey, lastModified: item.LastModified ?? new Date(0), size: item.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }

  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.explain(error);
    }
  }

  /** The sentence for a failure of the storage server: which setting is at fault, when one is. */
  private explain(error: unknown): AppError {
    const where = this.description;
    const name = error instanceof S3ServiceException ? error.name : (error as { name?: string } | null)?.name;
    const code = (error as { code?: string } | null)?.code;
    let reason: string;
    switch (name) {
      case 'NoSuchBucket':
        reason = `the bucket does not exist (check S3_BUCKET, or create the bucket)`;
        break;
      case 'InvalidAccessKeyId':
        reason = `the storage server does not know this access key (check S3_ACCESS_KEY_ID)`;
        break;
      case 'SignatureDoesNotMatch':
        reason = `the secret key does not match the access key (check S3_SECRET_ACCESS_KEY)`;
        break;
      case 'AccessDenied':
      case 'Forbidden':
        reason = `access is denied to these credentials (check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the bucket's policy)`;
        break;
      case 'PermanentRedirect':
      case 'AuthorizationHeaderMalformed':
        reason = `the bucket is in another region (check S3_REGION)`;
        break;
      default:
        reason =
          code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET' || name === 'TimeoutError'
            ? `the storage server cannot be reached (${code ?? name}; check S3_ENDPOINT)`
            : `the storage server answered ${name ?? 'an error'}: ${(error as Error | null)?.message ?? String(error)}`;
    }
    return new AppError('UNAVAILABLE', `File storage is not available: ${where}: ${reason}. Please try again later.`);
  }
}

/** The object's key in the bucket: the storage key under a folder of its first two digits, as on disk. */
export function objectKey(storageKey: string): string {
  if (!/^[0-9a-f]{32}$/.test(storageKey)) throw new Error(`Invalid storage key: ${storageKey}`);
  return `${storageKey.slice(0, 2)}/${storageKey}`;
}

function isMissingObject(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound';
}
