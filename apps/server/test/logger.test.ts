import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { chooseLogFormat, formatLogLine } from '../src/lib/logger.ts';

describe('log lines for people and for machines', () => {
  it('is JSON when the output is not a terminal or LOG_FORMAT=json, pretty on a terminal', () => {
    expect(chooseLogFormat({}, false)).toBe('json');
    expect(chooseLogFormat({}, true)).toBe('pretty');
    expect(chooseLogFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(chooseLogFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('writes a pino line as time, level and message, then the request and plain fields', () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (chunk: string) => void lines.push(chunk) });
    log.info({ port: 3000, nested: { a: 1 } }, 'Server listening');
    log.warn({ req: { method: 'GET', url: '/api/courses' }, res: { statusCode: 404 }, responseTime: 12.4 }, 'done');
    log.error({ err: new Error('disk full') }, 'write failed');
    const [listening, request, failure] = lines.map(formatLogLine);
    expect(listening).toMatch(/^\d\d:\d\d:\d\d INFO {2}Server listening port=3000$/);
    expect(request).toMatch(/^\d\d:\d\d:\d\d WARN {2}done GET \/api\/courses 404 12 ms$/);
    expect(failure).toMatch(/^\d\d:\d\d:\d\d ERROR write failed\n {2}Error: disk full/);
    expect(formatLogLine('not json\n')).toBe('not json');
  });
});
