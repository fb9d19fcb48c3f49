import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { freePort } from './server-process.ts';
import { startSignatureCheck, type SignatureCheck } from './s3-signature-check.ts';

/**
 * A real S3 protocol server on loopback (s3rver 3.7.1: signed requests, listing, multipart), its
 * objects in a temporary folder: the tests speak to it over HTTP with the AWS SDK, as the server
 * speaks to MinIO or AWS. Its one account is S3RVER / S3RVER. No in-memory stand-in.
 */
export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The environment that points a Gradewise process at this server's bucket. */
  env: Record<string, string>;
  /** The folder s3rver keeps objects in (`<bucket>/<key>._S3rver_object`). */
  directory: string;
  /** With `checkSignatures`: the front that checks each request's signature (counts what it refused). */
  signatures?: SignatureCheck;
  /** Stops the server; its port refuses connections after this. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export const S3RVER_KEY = 'S3RVER';

export async function startS3Server(
  options: {
    bucket?: string;
    port?: number;
    directory?: string;
    /** Check each request's SigV4 signature against the secret, as S3 does (s3rver does not). */
    checkSignatures?: boolean;
  } = {},
): Promise<S3TestServer> {
  const bucket = options.bucket ?? 'gradewise-files';
  // A given folder: the same server started again over the objects it held (a storage coming back).
  const directory = options.directory ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'gradewise-s3-')));
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const signatures = options.checkSignatures
    ? await startSignatureCheck(port, new Map([[S3RVER_KEY, S3RVER_KEY]]))
    : undefined;
  const endpoint = `http://127.0.0.1:${signatures?.port ?? port}`;
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    await signatures?.close();
    await server.close();
  };
  return {
    endpoint,
    bucket,
    directory,
    signatures,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    stop,
    close: async () => {
      await stop();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
