import { parentPort } from 'node:worker_threads';
import { AppError } from '../lib/errors.ts';
import { readEmailsFromSpreadsheet, type SpreadsheetLimits } from './read-roster-spreadsheet.ts';

/**
 * The body of a spreadsheet thread (see read-spreadsheet-off-thread.ts): reads one roster
 * spreadsheet and answers with its email-like entries, or with the AppError that refused it.
 */

export interface SpreadsheetThreadRequest {
  content: Uint8Array;
  limits: SpreadsheetLimits;
}

export type SpreadsheetThreadReply =
  { ok: true; emails: string[] } | { ok: false; error: { code: AppError['code']; message: string } | null };

const port = parentPort;
if (!port) throw new Error('spreadsheet-thread.ts runs only as a worker thread (see read-spreadsheet-off-thread.ts).');

port.once('message', (request: SpreadsheetThreadRequest) => {
  let reply: SpreadsheetThreadReply;
  try {
    const content = Buffer.from(request.content.buffer, request.content.byteOffset, request.content.byteLength);
    reply = { ok: true, emails: readEmailsFromSpreadsheet(content, request.limits) };
  } catch (error) {
    reply = {
      ok: false,
      error: error instanceof AppError ? { code: error.code, message: error.message } : null,
    };
  }
  port.postMessage(reply);
  port.close();
});
