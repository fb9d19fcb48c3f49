import { randomUUID } from 'node:crypto';

/** Row ids are random UUIDs: not guessable, safe to show in URLs. */
export function newId(): string {
  return randomUUID();
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID cannot name a row: callers answer 404 without querying. */
export function isId(value: string): boolean {
  return UUID_PATTERN.test(value);
}
