import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Runs `body` (ES module lines) in a child Node process through tsx and returns what it printed as
 * JSON. The body gets `fs` and `osThreads()`, the OS's count of the child's threads (Linux's
 * /proc/self/status): worker threads and their helpers show up there until they have exited, which
 * is what tests of closing a pool of threads count. The child has only its own threads, not the
 * test runner's.
 */
export async function runCountingThreads<T>(body: readonly string[], timeoutMs: number): Promise<T> {
  const script = [
    "import fs from 'node:fs';",
    "const osThreads = () => Number(/Threads:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);",
    ...body,
  ].join('\n');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: timeoutMs },
  );
  return JSON.parse(stdout.trim()) as T;
}
