import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { BackupError, writeBackup, type BackupSource, type BackupSummary } from './write-backup.ts';

/**
 * How `npm run backup` reaches a running server on the embedded database. PGlite has one
 * connection and no inter-process lock, and the server holds the data directory
 * (db/data-dir-lock.ts), so the server process takes the backup itself, through its own
 * connection, when asked on a Unix socket inside the data directory. The socket is created by the
 * server's user with mode 0600: only that user (and root), who can read the data directory
 * anyway, can ask. No network port, no token. Decision 0070.
 *
 * Protocol: the client sends one JSON line `{"out": "/absolute/folder"}`; the server answers JSON
 * lines `{"log": "…"}` and one last `{"ok": true, "summary": …}` or `{"ok": false, "error": "…"}`.
 */

const SOCKET_NAME = 'backup.sock';
/** sun_path holds 108 bytes on Linux, 104 on macOS. */
const MAX_SOCKET_PATH = 100;

/** The socket's address: its absolute path, or one relative to the current folder when that alone fits. */
export function backupSocketAddress(dataDir: string): string | undefined {
  const absolute = path.join(path.resolve(dataDir), SOCKET_NAME);
  if (Buffer.byteLength(absolute) <= MAX_SOCKET_PATH) return absolute;
  const relative = path.relative(process.cwd(), absolute);
  return Buffer.byteLength(relative) <= MAX_SOCKET_PATH ? relative : undefined;
}

export interface BackupListener {
  close(): Promise<void>;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Listens for backup requests (embedded mode; the caller holds the data-directory lock, so a
 * socket file left there is from a process that is gone). One backup at a time.
 */
export async function listenForBackupRequests(
  source: BackupSource,
  dataDir: string,
  log: Logger,
): Promise<BackupListener> {
  const address = backupSocketAddress(dataDir);
  if (process.platform === 'win32' || address === undefined) {
    log.warn(
      `npm run backup cannot reach this server (${process.platform === 'win32' ? 'no Unix sockets on Windows' : 'DATA_DIR is too long a path for a Unix socket'}): stop it to back up.`,
    );
    return { close: async () => {} };
  }
  fs.rmSync(address, { force: true });
  let running = false;
  // Connections that have not asked yet: closing the listener ends them (a backup being written finishes).
  const waiting = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
    const send = (message: unknown) => {
      if (!socket.destroyed) socket.write(JSON.stringify(message) + '\n');
    };
    const lines = readline.createInterface({ input: socket });
    lines.once('line', (text) => {
      lines.close();
      waiting.delete(socket);
      void (async () => {
        let out: unknown;
        try {
          out = (JSON.parse(text) as { out?: unknown }).out;
        } catch {
          out = undefined;
        }
        if (typeof out !== 'string' || !path.isAbsolute(out)) {
          send({ ok: false, error: 'The request must be one JSON line {"out": "/absolute/folder"}.' });
          socket.end();
          return;
        }
        if (running) {
          send({ ok: false, error: 'Another backup is being written by this server: try again when it is done.' });
          socket.end();
          return;
        }
        running = true;
        log.info(`backup requested into ${out}`);
        try {
          const summary = await writeBackup(source, out, (message) => send({ log: message }));
          log.info(`backup written to ${out}: ${summary.rows} rows, ${summary.files} files`);
          send({ ok: true, summary });
        } catch (error) {
          log.warn(`backup into ${out} failed: ${(error as Error).message}`);
          send({ ok: false, error: (error as Error).message });
        } finally {
          running = false;
          socket.end();
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(address, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of waiting) socket.destroy();
        fs.rmSync(address, { force: true });
      }),
  };
}

/** The server is not listening (not running, or a version without backups). */
export class NoServerListeningError extends Error {}

/** Asks the running server to write a backup into `out` (an absolute path); `onLog` gets its progress lines. */
export async function requestBackupFromServer(
  dataDir: string,
  out: string,
  onLog: (message: string) => void,
): Promise<BackupSummary> {
  const address = backupSocketAddress(dataDir);
  if (address === undefined) {
    throw new BackupError(
      'DATA_DIR is too long a path for the running server’s backup socket: stop the server to back up.',
    );
  }
  return new Promise<BackupSummary>((resolve, reject) => {
    const socket = net.connect(address);
    let answered = false;
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      answered = true;
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new NoServerListeningError(`No Gradewise server is listening on ${address}.`)
          : error,
      );
    });
    socket.once('connect', () => socket.write(JSON.stringify({ out }) + '\n'));
    readline.createInterface({ input: socket }).on('line', (text) => {
      const message = JSON.parse(text) as { log?: string; ok?: boolean; error?: string; summary?: BackupSummary };
      if (message.log !== undefined) onLog(message.log);
      if (message.ok === true && message.summary) {
        answered = true;
        resolve(message.summary);
      } else if (message.ok === false) {
        answered = true;
        reject(new BackupError(message.error ?? 'The server could not write the backup.'));
      }
    });
    socket.once('close', () => {
      if (!answered) {
        answered = true;
        reject(new BackupError('The server closed the connection before the backup was written (did it stop?).'));
      }
    });
  });
}
