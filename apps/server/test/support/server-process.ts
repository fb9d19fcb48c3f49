import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The real server (`apps/server/src/main.ts`, or the worker-only `src/worker.ts`) as a child
 * process, for tests that must kill it.
 * It runs under node directly (`node --import tsx`, not the tsx CLI, which would put a second
 * process between us and the server: a SIGKILL must hit the server itself). Its pino log lines
 * are parsed so a test can wait on what the server reports, never on time.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LogLine {
  msg?: string;
  level?: number;
  [key: string]: unknown;
}

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  logs: LogLine[];
  /** Resolves with the first log line (already seen or future) matching; rejects if the process exits first. */
  waitForLog(predicate: (line: LogLine) => boolean): Promise<LogLine>;
  /** SIGKILL: no cleanup of any kind, as a power cut or the OOM killer would do. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit: the graceful path. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcessOptions {
  /** 'server' (default): HTTP and, unless JOB_WORKERS=off, job workers; 'worker': job workers only. */
  kind?: 'server' | 'worker';
  /** The port to listen on (default: a free one), for a caller that must know it first (PUBLIC_URL). */
  port?: number;
}

export async function startServerProcess(
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const kind = options.kind ?? 'server';
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', kind === 'worker' ? 'src/worker.ts' : 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<{
    predicate: (line: LogLine) => boolean;
    resolve: (line: LogLine) => void;
    reject: (error: Error) => void;
  }>();
  let stderr = '';
  let exited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      exited = true;
      for (const waiter of waiters)
        waiter.reject(new Error(`server exited (code ${code}) before the awaited log line.\n${stderr.slice(-2000)}`));
      waiters.clear();
      resolve(code);
    });
  });
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { msg: text };
    }
    logs.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });

  const waitForLog = (predicate: (line: LogLine) => boolean) =>
    new Promise<LogLine>((resolve, reject) => {
      const seen = logs.find(predicate);
      if (seen) return resolve(seen);
      if (exited) return reject(new Error(`server already exited.\n${stderr.slice(-2000)}`));
      waiters.add({ predicate, resolve, reject });
    });

  const readyLine = kind === 'worker' ? 'Gradewise worker is running' : 'Gradewise is running at';
  await waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith(readyLine));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    logs,
    waitForLog,
    kill: async () => {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      return exit;
    },
  };
}
