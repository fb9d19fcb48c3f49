import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The token signing secret: TOKEN_SECRET when configured, otherwise generated once and kept in
 * the data directory (mode 0600) so tokens survive restarts. Processes that share one PostgreSQL
 * must share the secret too: set TOKEN_SECRET or share the data directory.
 */
export function loadOrCreateSecret(dataDir: string, configured?: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  fs.mkdirSync(dataDir, { recursive: true });
  const secretPath = path.join(dataDir, 'token-secret');
  try {
    fs.writeFileSync(secretPath, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new TextEncoder().encode(fs.readFileSync(secretPath, 'utf8').trim());
}
