import { pino, type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    // Never log credentials or tokens, wherever they appear in a logged object.
    redact: ['req.headers.authorization', '*.password', '*.passwordHash', '*.token', 'headers.authorization'],
  });
}
