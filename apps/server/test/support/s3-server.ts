import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { freePort } from './server-process.ts';

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
  /** Stops the server; its port refuses connections after this. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export const S3RVER_KEY = 'S3RVER';

export async function startS3Server(
  options: { bucket?: string; port?: number; directory?: string } = {},
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
  const endpoint = `http://127.0.0.1:${port}`;
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    await server.close();
  };
  return {
    endpoint,
    bucket,
    directory,
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
