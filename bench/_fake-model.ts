// Helper of bench/pipeline.ts (names starting with `_` are not run by `npm run bench`).
//
// Runs the project's fake OpenAI-compatible model (apps/server/test/support/fake-llm-server.ts) in
// a process of its own, so that its CPU and its timers are not the measured server's: a remote
// model's latency does not depend on the grading server's event loop, and its JSON work is not the
// server's CPU. Started by `startFakeModelProcess` below with an IPC channel; answers every call
// with the "smart" behaviour after LATENCY_MS.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startFakeLlmServer } from '../apps/server/test/support/fake-llm-server.ts';

/** What the parent asks, and what the child answers. */
type Request = { type: 'stats'; seq: number } | { type: 'close' };
type Reply = { type: 'ready'; baseUrl: string } | { type: 'stats'; seq: number; stats: FakeModelStats };

export interface FakeModelStats {
  /** Chat calls received so far. */
  chatCalls: number;
  mostInFlight: number;
  /** Per chat call in arrival order: received -> answer written, in ms (NaN while unanswered). */
  insideFakeMs: number[];
  /** The child process's own CPU since it started, in ms. */
  cpuMs: number;
}

export interface FakeModelProcess {
  baseUrl: string;
  stats(): Promise<FakeModelStats>;
  close(): Promise<void>;
}

/** Forks this file as the fake model's process (Node's flags, tsx's loader among them, are inherited). */
export async function startFakeModelProcess(latencyMs: number): Promise<FakeModelProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_FAKE_MODEL_LATENCY_MS: String(latencyMs) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, (stats: FakeModelStats) => void>();
  let seq = 0;
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the fake model's process exited (${code}) before it was ready`)));
    child.on('message', (message: Reply) => {
      if (message.type === 'ready') resolve(message.baseUrl);
      else pending.get(message.seq)?.(message.stats);
    });
  });
  return {
    baseUrl,
    stats: () =>
      new Promise((resolve) => {
        seq += 1;
        pending.set(seq, resolve);
        child.send({ type: 'stats', seq } satisfies Request);
      }),
    close: async () => {
      if (child.connected) child.send({ type: 'close' } satisfies Request);
      await exited;
    },
  };
}

async function runChild(): Promise<void> {
  const latencyMs = Number(process.env.BENCH_FAKE_MODEL_LATENCY_MS);
  const fake = await startFakeLlmServer();
  fake.setDefaultBehaviour({ kind: 'smart', latencyMs });
  process.on('message', (message: Request) => {
    if (message.type === 'close') {
      void fake.close().finally(() => process.exit(0));
      return;
    }
    const cpu = process.cpuUsage();
    const stats: FakeModelStats = {
      chatCalls: fake.chatRequests().length,
      mostInFlight: fake.mostChatRequestsInFlight(),
      insideFakeMs: fake
        .chatRequests()
        .map((request) => (request.answeredAt === undefined ? NaN : request.answeredAt - request.receivedAt)),
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
    process.send!({ type: 'stats', seq: message.seq, stats } satisfies Reply);
  });
  // The parent died without closing: do not outlive it.
  process.on('disconnect', () => void fake.close().finally(() => process.exit(0)));
  process.send!({ type: 'ready', baseUrl: fake.baseUrl } satisfies Reply);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runChild();
