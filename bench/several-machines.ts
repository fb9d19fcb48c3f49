// Issue 30's figures, side by side in one run (decision 0071):
//
//   - file storage: upload (put) and download (get) throughput of S3Storage against an s3rver on
//     loopback, beside LocalDiskStorage on this machine's disk, the same files in alternating rounds;
//   - API: requests per second and server CPU per request (/proc/PID/stat of the server processes)
//     of one API process against two on the same PostgreSQL (DATABASE_URL), for an authenticated
//     GET /api/courses, loaded by autocannon (the two at once, each with the same connections).
//
//   npm run bench -- several-machines            # both parts (the API part needs DATABASE_URL)
//   npm run bench -- several-machines --quick    # fewer files, shorter loads
//
// The s3rver runs in this process (as the tests run it): the S3 figures include its own cost, on
// the same cores, so they are a floor for a real S3 server on its own machine, not a forecast.
// On a 2-core machine shared with the load generator and PostgreSQL, two API processes cannot
// double the rate: the ratio says what a second process adds here, the CPU per request says what
// each request costs either way.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import autocannon from 'autocannon';
import pg from 'pg';
import { LocalDiskStorage, type FileStorage } from '../apps/server/src/storage/file-storage.ts';
import { S3Storage } from '../apps/server/src/storage/s3-storage.ts';
import { startS3Server } from '../apps/server/test/support/s3-server.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/support/server-process.ts';

const quick = process.argv.includes('--quick');
const FILES = quick ? 8 : 24;
const FILE_MB = 2;
const ROUNDS = quick ? 2 : 4;
const LOAD_SECONDS = quick ? 4 : 10;
const CONNECTIONS = 16;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fixed = (value: number, digits = 1) => value.toFixed(digits);

async function storageThroughput(): Promise<void> {
  const s3 = await startS3Server();
  const localRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-local-'));
  const bucket = new S3Storage({
    bucket: s3.bucket,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  const local = new LocalDiskStorage(localRoot);
  const files = Array.from({ length: FILES }, () => randomBytes(FILE_MB * 1024 * 1024));
  const totalMb = FILES * FILE_MB;
  const results: Record<'local' | 's3', { put: number[]; get: number[] }> = {
    local: { put: [], get: [] },
    s3: { put: [], get: [] },
  };
  const round = async (storage: FileStorage, into: { put: number[]; get: number[] }) => {
    let started = performance.now();
    const keys: string[] = [];
    for (const file of files) keys.push(await storage.put(Readable.from([file]), file.length));
    into.put.push(totalMb / ((performance.now() - started) / 1000));
    started = performance.now();
    for (const key of keys) {
      const { body } = await storage.open(key);
      for await (const chunk of body) void chunk;
    }
    into.get.push(totalMb / ((performance.now() - started) / 1000));
    for (const key of keys) await storage.delete(key);
  };
  try {
    for (let index = 0; index < ROUNDS; index += 1) {
      // Alternating, so a slower moment of the machine falls on both.
      await round(local, results.local);
      await round(bucket, results.s3);
    }
  } finally {
    bucket.close();
    await s3.close();
    fs.rmSync(localRoot, { recursive: true, force: true });
  }
  console.log(`\nFile storage: ${FILES} files of ${FILE_MB} MB, ${ROUNDS} rounds, median MB/s`);
  console.log('| | local disk | S3 (s3rver, loopback) | S3 / local |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const step of ['put', 'get'] as const) {
    const l = median(results.local[step]);
    const s = median(results.s3[step]);
    console.log(
      `| ${step === 'put' ? 'upload (put)' : 'download (stream)'} | ${fixed(l)} | ${fixed(s)} | ${fixed(s / l, 2)} |`,
    );
  }
}

const TICK_MS = 10; // USER_HZ = 100 on Linux
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function load(servers: ServerProcess[], token: string) {
  const cpuBefore = servers.map((server) => cpuMs(server.child.pid!));
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `${server.baseUrl}/api/courses`,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        duration: LOAD_SECONDS,
      }),
    ),
  );
  const cpu = servers.reduce((sum, server, index) => sum + cpuMs(server.child.pid!) - cpuBefore[index]!, 0);
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors, 0);
  if (failed > 0) throw new Error(`${failed} requests failed`);
  return { perSecond: requests / LOAD_SECONDS, cpuMsPerRequest: cpu / requests };
}

async function apiScaleOut(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.log('\nAPI: DATABASE_URL is not set, so one against two API processes is not measured.');
    return;
  }
  const name = `gradewise_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const s3 = await startS3Server();
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  try {
    const env = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gradewise-bench-api-'));
      dirs.push(dir);
      return {
        DATABASE_URL: url.toString(),
        DATA_DIR: dir,
        TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
        JOB_WORKERS: 'off',
        LOG_LEVEL: 'info', // the start line is at info; LOG_REQUESTS stays off
        NODE_ENV: 'production',
        AUTH_RATE_LIMIT: '100000',
        ...s3.env,
      };
    };
    servers.push(await startServerProcess(env()));
    servers.push(await startServerProcess(env()));
    const [first] = servers as [ServerProcess, ServerProcess];
    const account = { name: 'Ada', email: 'ada@example.edu', password: 'correct-horse-battery', role: 'instructor' };
    const post = (target: string, body: unknown, token?: string) =>
      fetch(`${first.baseUrl}${target}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
    await post('/api/auth/register', account);
    const { token } = (await (
      await post('/api/auth/login', { email: account.email, password: account.password })
    ).json()) as { token: string };
    for (let index = 0; index < 10; index += 1) {
      const form = new FormData();
      form.set('title', `Course ${index}`);
      await fetch(`${first.baseUrl}/api/courses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    }
    await load([first], token); // warm both code paths once
    const one: { perSecond: number; cpuMsPerRequest: number }[] = [];
    const two: { perSecond: number; cpuMsPerRequest: number }[] = [];
    for (let index = 0; index < (quick ? 1 : 2); index += 1) {
      one.push(await load([first], token));
      two.push(await load(servers, token));
    }
    const oneRate = median(one.map((r) => r.perSecond));
    const twoRate = median(two.map((r) => r.perSecond));
    const oneCpu = median(one.map((r) => r.cpuMsPerRequest));
    const twoCpu = median(two.map((r) => r.cpuMsPerRequest));
    console.log(
      `\nAPI: authenticated GET /api/courses (10 courses), ${CONNECTIONS} connections per process, ${LOAD_SECONDS} s, ${os.availableParallelism()} cores, PostgreSQL and the load generator on the same machine`,
    );
    console.log('| | one API process | two API processes | two / one |');
    console.log('| --- | ---: | ---: | ---: |');
    console.log(
      `| requests per second | ${fixed(oneRate, 0)} | ${fixed(twoRate, 0)} | ${fixed(twoRate / oneRate, 2)} |`,
    );
    console.log(
      `| server CPU ms per request | ${fixed(oneCpu, 2)} | ${fixed(twoCpu, 2)} | ${fixed(twoCpu / oneCpu, 2)} |`,
    );
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await s3.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await storageThroughput();
await apiScaleOut();
