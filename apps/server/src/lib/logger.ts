import { pino, type DestinationStream, type Logger } from 'pino';

/** How log lines are written: one JSON object a line, or short lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * JSON when the output is not a terminal (a file, a pipe, a log collector) or `LOG_FORMAT=json`;
 * short readable lines on a terminal, or with `LOG_FORMAT=pretty` (issue 29, decision 0072).
 */
export function chooseLogFormat(env: NodeJS.ProcessEnv, isTty: boolean): LogFormat {
  if (env.LOG_FORMAT === 'json') return 'json';
  if (env.LOG_FORMAT === 'pretty') return 'pretty';
  return isTty ? 'pretty' : 'json';
}

export function createLogger(
  level: string,
  format: LogFormat = chooseLogFormat(process.env, Boolean(process.stdout.isTTY)),
): Logger {
  const options = {
    level,
    // Never log credentials or tokens, wherever they appear in a logged object.
    redact: ['req.headers.authorization', '*.password', '*.passwordHash', '*.token', 'headers.authorization'],
  };
  return format === 'pretty' ? pino(options, prettyDestination(process.stdout)) : pino(options);
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'req', 'res', 'err', 'reqId', 'responseTime']);

/**
 * One pino JSON line as a person reads it, in pino-pretty's spirit: "12:03:04 INFO  message", then
 * the request ("GET /api/courses 200 12 ms"), an error's message, and other plain fields as
 * key=value. A line that is not JSON is passed through as it is.
 */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.replace(/\n$/, '');
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '--:--:--';
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const parts = [time, level, typeof entry.msg === 'string' ? entry.msg : ''];
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${Math.round(entry.responseTime)} ms`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (OMITTED.has(key) || value === null || typeof value === 'object') continue;
    parts.push(`${key}=${String(value)}`);
  }
  const head = parts.filter((part) => part !== '').join(' ');
  return err?.message ? `${head}\n  ${err.stack ?? err.message}` : head;
}

function prettyDestination(out: NodeJS.WriteStream): DestinationStream {
  return { write: (chunk: string) => void out.write(`${formatLogLine(chunk)}\n`) };
}
