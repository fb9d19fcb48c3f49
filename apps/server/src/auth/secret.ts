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
  // Written in full under a name of our own, then linked into place: link() fails when the secret
  // exists, and a process starting beside us never reads a secret that is still being written
  // (with 'wx' it could read an empty file and sign with an empty key).
  const draftPath = `${secretPath}.${process.pid}.${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(draftPath, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(draftPath, secretPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(draftPath, { force: true });
  }
  return new TextEncoder().encode(fs.readFileSync(secretPath, 'utf8').trim());
}
