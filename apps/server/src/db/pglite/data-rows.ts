import { Buffer } from 'node:buffer';
import { protocol } from '@electric-sql/pglite';

/**
 * PGlite's protocol parser with its DataRow messages left undecoded until read, and the other
 * messages of every statement read without per-value copies (issue 11,
 * docs/decisions/0055-pglite-messages-and-fewer-statements.md).
 *
 * PGlite parses every byte PostgreSQL writes, inside its write callback, with pg-protocol's
 * `Parser`: each column of each row is copied into a new ArrayBuffer (`BufferReader.bytes`) and
 * then decoded by a `TextDecoder`, about 700 ns per value, before anyone reads it. On the question
 * page of a big class that was about a sixth of the server's CPU. Here a DataRow message keeps a
 * view of its bytes instead (one copy per chunk, as the original makes), and `parseResult`
 * (db/pglite/statements.ts) decodes each value once, straight from that view, with Node's UTF-8
 * decoder (about 100 ns). Anything that reads a row's `fields` (PGlite's own `parseResults`, used
 * by `exec`) gets the same strings, decoded then.
 *
 * The row descriptions, command tags and acknowledgements every statement also brings are built
 * here as pg-protocol's own message classes (its parser read each column name through the same
 * copy and decoder); anything else (errors, notices, notifications, COPY) is handed whole to a
 * parser running PGlite's own code, so those keep its exact behaviour.
 * `Parser.prototype.parse` is the class's one public method and PGlite creates its parser with
 * `new Parser()`, so replacing the method is what reaches the instance PGlite holds.
 */

/**
 * The PGlite whose parser this replaces the method of, as read in its source: 0.5.17 creates one
 * `new protocol.Parser()` per instance and feeds it every chunk PostgreSQL writes through `parse`.
 * pglite-version.test.ts fails, naming this file, when the installed PGlite differs: read how the
 * new version parses what PostgreSQL writes, then change this.
 */
export const DATA_ROWS_WRITTEN_FOR_PGLITE = '0.5.17';

const HEADER_LENGTH = 5; // a one-byte code, then a four-byte length that counts itself

/** A DataRow whose values are read from its bytes on demand. */
export class LazyDataRow {
  readonly name = 'dataRow';

  /** `start`: the message's body (its field count), `length`: as in the header (body + 4). */
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    readonly length: number,
  ) {}

  get fieldCount(): number {
    return this.bytes.readUInt16BE(this.start);
  }

  /** The values as text (null for SQL NULL), as pg-protocol's DataRowMessage has them. */
  get fields(): (string | null)[] {
    return this.values((value) => value);
  }

  /** Each value decoded and passed through `read(text, columnIndex)`; null stays null. */
  values<Value>(read: (text: string, index: number) => Value): (Value | null)[] {
    const { bytes } = this;
    const count = bytes.readUInt16BE(this.start);
    const values = new Array<Value | null>(count);
    let position = this.start + 2;
    for (let index = 0; index < count; index += 1) {
      const length = bytes.readInt32BE(position);
      position += 4;
      if (length === -1) {
        values[index] = null;
      } else {
        values[index] = read(bytes.toString('utf8', position, position + length), index);
        position += length;
      }
    }
    return values;
  }
}

type Parser = InstanceType<typeof protocol.Parser>;
type ParseArguments = Parameters<Parser['parse']>;

/**
 * PGlite's own `parse`, kept on the prototype itself: a test runner that evaluates this module again
 * (with PGlite's module still loaded) must find the original there, not this module's replacement.
 */
const ORIGINAL = Symbol.for('gradewise.pglite-parse');
const prototype = protocol.Parser.prototype as Parser & { [ORIGINAL]?: Parser['parse'] };
export const pglitesParse = (prototype[ORIGINAL] ??= prototype.parse);
/**
 * Per parser: the chunks of a message not complete yet (with their length, and the length the
 * message needs once its header is in), and the parser that reads the other messages.
 */
interface ParserState {
  pending: Buffer[];
  pendingLength: number;
  needed: number;
  others: Parser;
}
const states = new WeakMap<Parser, ParserState>();

function parseKeepingRowsRaw(this: Parser, buffer: ParseArguments[0], callback: ParseArguments[1]): void {
  let state = states.get(this);
  if (!state) {
    state = { pending: [], pendingLength: 0, needed: 0, others: new protocol.Parser() };
    states.set(this, state);
  }
  const chunk = ArrayBuffer.isView(buffer)
    ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength)
    : new Uint8Array(buffer);
  // A copy: PGlite's chunk is a view into WebAssembly memory, written over by the next statement.
  const copy = Buffer.from(chunk);
  if (state.pendingLength > 0 && state.pendingLength + copy.length < state.needed) {
    // A long message still arriving: joined once it is whole, not copied again with every chunk.
    state.pending.push(copy);
    state.pendingLength += copy.length;
    return;
  }
  const bytes = state.pendingLength > 0 ? Buffer.concat([...state.pending, copy]) : copy;
  let offset = 0;
  while (offset + HEADER_LENGTH <= bytes.length) {
    const code = bytes[offset]!;
    const length = bytes.readUInt32BE(offset + 1);
    const end = offset + 1 + length;
    // As pg-protocol's own loop: wait for the rest of a message that is not all here yet.
    if (end > bytes.length || length === 0) break;
    const message = commonMessage(code, bytes, offset + HEADER_LENGTH, length);
    if (message) callback(message as never);
    else pglitesParse.call(state.others, bytes.subarray(offset, end), callback);
    offset = end;
  }
  const rest = bytes.length - offset;
  state.pending = rest === 0 ? [] : [bytes.subarray(offset)];
  state.pendingLength = rest;
  // The whole message once its header is in; until then, any chunk may complete the header.
  state.needed = rest >= HEADER_LENGTH ? 1 + bytes.readUInt32BE(offset + 1) : 0;
}

const { messages } = protocol;
const TEXT_MODE = 0; // pg-protocol's Modes.text

/**
 * The messages every statement brings (its row description, rows, command tag and the extended
 * protocol's acknowledgements), as pg-protocol's own classes and shared objects, read without its
 * per-value copies; undefined for the others (errors, notices, notifications, COPY), which
 * PGlite's parser reads. `start` is the message's body, `length` as in its header.
 */
function commonMessage(code: number, bytes: Buffer, start: number, length: number): unknown {
  switch (code) {
    case 0x44: // 'D' DataRow
      return new LazyDataRow(bytes, start, length);
    case 0x54: // 'T' RowDescription
      return rowDescription(bytes, start, length);
    case 0x43: // 'C' CommandComplete: its tag, NUL-terminated
      return new messages.CommandCompleteMessage(length, bytes.toString('utf8', start, bytes.indexOf(0, start)));
    case 0x5a: // 'Z' ReadyForQuery: one status byte
      return new messages.ReadyForQueryMessage(length, bytes.toString('utf8', start, start + 1));
    case 0x31: // '1'
      return messages.parseComplete;
    case 0x32: // '2'
      return messages.bindComplete;
    case 0x33: // '3'
      return messages.closeComplete;
    case 0x6e: // 'n'
      return messages.noData;
    default:
      return undefined;
  }
}

function rowDescription(bytes: Buffer, start: number, length: number): unknown {
  const fieldCount = bytes.readUInt16BE(start);
  const message = new messages.RowDescriptionMessage(length, fieldCount);
  let position = start + 2;
  for (let index = 0; index < fieldCount; index += 1) {
    const nameEnd = bytes.indexOf(0, position);
    const name = bytes.toString('utf8', position, nameEnd);
    position = nameEnd + 1;
    message.fields[index] = new messages.Field(
      name,
      bytes.readInt32BE(position),
      bytes.readInt16BE(position + 4),
      bytes.readInt32BE(position + 6),
      bytes.readInt16BE(position + 10),
      bytes.readInt32BE(position + 12),
      bytes.readInt16BE(position + 16) === TEXT_MODE ? 0 : 1,
    );
    position += 18;
  }
  return message;
}

/** Makes every PGlite parser of this process keep DataRow messages raw; idempotent. */
export function keepPgliteDataRowsRaw(): void {
  if (typeof pglitesParse !== 'function') {
    throw new Error(
      `This PGlite's protocol.Parser has no parse method, which db/pglite/data-rows.ts (written for PGlite ` +
        `${DATA_ROWS_WRITTEN_FOR_PGLITE}) replaces: read how the new version parses messages and change that file.`,
    );
  }
  prototype.parse = parseKeepingRowsRaw;
}
