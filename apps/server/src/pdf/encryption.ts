import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { ExtractionError, passwordProtectedError } from './extraction-error.ts';
import { withNamesDecoded } from './pdf-names.ts';
import { endOfValue, nameOf, numberOf, ownValues, type Lookup } from './stream-filters.ts';

/**
 * Encrypted PDFs, read by the up-front counts as pdf.js reads them (decision 0108). pdf.js opens a
 * file encrypted by the standard security handler with an empty user password without asking (the
 * password only restricts printing or copying: common in downloaded and "protected" exports), and
 * decrypts every stream it fetches from the file's text; the counts must read the same bytes or
 * an encrypted chain of forms reaches pdf.js uncounted (it held a reading thread until the CPU
 * budgets). So the key is derived from the empty password exactly as pdf.js's
 * CipherTransformFactory derives it (RC4 40-128 bits, V 1 and 2; AESV2, V 4; AESV3, V 5 revisions 5
 * and 6) and each stream of the file's text is decrypted with its object's key before its filters
 * are undone. Streams packed in an object stream are not decrypted again (pdf.js parses them
 * without a cipher), nor are cross-reference streams (read before the key).
 *
 * A file that needs a user password is refused with the message pdf.js's PasswordException gives
 * (nobody can read it without the password); one whose encryption this reading cannot follow (a
 * handler other than /Standard, a version or crypt filter pdf.js may or may not read, trailers
 * that disagree) is refused as encryption that cannot be checked: pdf.js refuses most of those
 * itself, and the rest would reach it unread.
 */

/** How a stream of the file's text is decrypted: its object number and generation, then its data. */
export type StreamDecryption = (objectNumber: number, generation: number, data: Uint8Array) => Uint8Array;

/**
 * The ways pdf.js may decrypt the file's streams: [null] for a file with no /Encrypt in any
 * trailer; one decryption when every trailer names the same /Encrypt and /ID; more when trailers
 * disagree (pdf.js takes one by rules of its own: the counts read the file each way). Throws the
 * file's fault when a user password is needed or the encryption cannot be followed.
 */
export function decryptionsOf(text: string, lookup: Lookup): (StreamDecryption | null)[] {
  // Fast path: no /Encrypt key at all (names decoded: `/Encr#79pt` counts).
  if (!hasEncryptKey(text)) return [null];
  const candidates = new Map<string, { encrypt: string; id: string } | null>();
  for (const trailer of trailersOf(text)) {
    const { keys, value } = ownValues(trailer, lookup);
    if (!keys.has('Encrypt')) {
      candidates.set('', null);
      continue;
    }
    const encrypt = value('Encrypt');
    // pdf.js opens the file unencrypted when /Encrypt is no dictionary.
    if (!encrypt?.startsWith('<<')) {
      if (encrypt === null) throw cannotBeChecked();
      candidates.set('', null);
      continue;
    }
    const id = keys.has('ID') ? value('ID') : '';
    if (id === null || id === undefined) throw cannotBeChecked();
    const first = id.startsWith('[') ? firstString(id, lookup) : '';
    if (first === null) throw cannotBeChecked();
    candidates.set(`${encrypt}\u0000${first}`, { encrypt, id: first });
  }
  if (candidates.size === 0) return [null];
  if (candidates.size > 3) throw cannotBeChecked();
  return [...candidates.values()].map((candidate) =>
    candidate === null
      ? null
      : standardHandler(candidate.encrypt, stringBytes(candidate.id) ?? Buffer.alloc(0), lookup),
  );
}

/** Whether the text holds the name /Encrypt, as pdf.js reads names: seven characters, each maybe a `#xx` escape. */
function hasEncryptKey(text: string): boolean {
  const key = /\/((?:[Encrypt]|#[0-9A-Fa-f]{2}){7})(?![^\0\t\n\f\r ()<>[\]{}/%])/g;
  for (let match = key.exec(text); match; match = key.exec(text))
    if (match[1] === 'Encrypt' || withNamesDecoded(`/${match[1]}`) === '/Encrypt') return true;
  return false;
}

/**
 * Every trailer dictionary of the file: after each `trailer` keyword, and each cross-reference
 * stream's dictionary (its own /Type /XRef). pdf.js takes the one its cross-reference chain starts
 * from, or in recovery the first usable; the counts read them all.
 */
function* trailersOf(text: string): Generator<string> {
  const keyword = /(?<![A-Za-z])trailer\s*<</g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const open = match.index + match[0].length - 2;
    yield withNamesDecoded(text.slice(open, endOfValue(text, open)));
  }
  const streams = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  for (let match = streams.exec(text); match; match = streams.exec(text)) {
    const before = text.slice(Math.max(0, match.index - 8192), match.index);
    const header = before.lastIndexOf('obj');
    const dictionary = withNamesDecoded(before.slice(header < 0 ? 0 : header + 3));
    if (!dictionary.includes('XRef')) continue;
    const { keys, value } = ownValues(dictionary);
    if (keys.has('Type') && nameOf(value('Type')) === 'XRef') yield dictionary;
  }
}

/** The first string of an array's text (`[<ab> <cd>]`), followed once when a reference; null: unreadable. */
function firstString(array: string, lookup: Lookup): string | null {
  let at = 1;
  while (at < array.length && ' \t\r\n\f\0'.includes(array[at]!)) at += 1;
  if (array[at] === ']') return '';
  const item = array.slice(at, endOfValue(array, at));
  const reference = /^(\d+)\s+\d+\s+R$/.exec(item);
  const value = reference ? lookup(Number(reference[1]))?.trim() : item;
  return value !== undefined && (value.startsWith('(') || value.startsWith('<')) ? value : null;
}

// ---------------------------------------------------------------------------------------------
// The standard security handler, as pdf.js's CipherTransformFactory reads it

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Uint8Array[]) => parts.reduce((hash, part) => hash.update(part), createHash('md5')).digest();

function standardHandler(encrypt: string, fileId: Buffer, lookup: Lookup): StreamDecryption {
  const { keys, value } = ownValues(encrypt, lookup);
  const name = (key: string) => (keys.has(key) ? nameOf(value(key)) : undefined);
  const whole = (key: string) => {
    const number = keys.has(key) ? numberOf(value(key)) : undefined;
    return number !== undefined && Number.isInteger(number) ? number : undefined;
  };
  const bytes = (key: string) => {
    const text = keys.has(key) ? value(key) : undefined;
    return text ? stringBytes(text) : Buffer.alloc(0);
  };
  if (name('Filter') !== 'Standard') throw cannotBeChecked();
  const algorithm = whole('V');
  if (algorithm !== 1 && algorithm !== 2 && algorithm !== 4 && algorithm !== 5) throw cannotBeChecked();
  const revision = whole('R');
  const owner = bytes('O');
  const user = bytes('U');
  if (owner === null || user === null) throw cannotBeChecked();
  const cryptFilters = keys.has('CF') ? value('CF') : undefined;
  const streamFilter = keys.has('StmF') ? nameOf(value('StmF')) : undefined;
  let keyLength = keys.has('Length') ? numberOf(value('Length')) : undefined;
  if (!keyLength) {
    if (algorithm <= 3) keyLength = 40;
    else if (cryptFilters?.startsWith('<<') && streamFilter !== undefined) {
      const filter = ownValues(cryptFilters, lookup).value(streamFilter);
      keyLength = (filter?.startsWith('<<') ? numberOf(ownValues(filter, lookup).value('Length')) : undefined) || 128;
      if (keyLength < 40) keyLength <<= 3;
    }
  }
  if (keyLength === undefined || !Number.isInteger(keyLength) || keyLength < 40 || keyLength % 8 !== 0)
    throw cannotBeChecked();
  let fileKey: Buffer | null;
  if (algorithm === 5) {
    if (revision !== 5 && revision !== 6) throw cannotBeChecked();
    const ue = bytes('UE');
    if (ue === null || user.length < 48) throw cannotBeChecked();
    const hash = (salt: Buffer) =>
      revision === 6 ? hash2B(Buffer.alloc(0), salt) : createHash('sha256').update(salt).digest();
    fileKey = hash(user.subarray(32, 40)).equals(user.subarray(0, 32))
      ? decryptAes('aes-256-cbc', hash(user.subarray(40, 48)), Buffer.alloc(16), ue.subarray(0, 32), false)
      : null;
  } else {
    const flags = whole('P') ?? 0;
    const encryptMetadata =
      algorithm === 4 && keys.has('EncryptMetadata') ? value('EncryptMetadata') !== 'false' : true;
    fileKey = rc4FileKey(
      fileId,
      owner.subarray(0, 32),
      user.subarray(0, 32),
      flags,
      revision ?? 0,
      keyLength,
      encryptMetadata,
    );
  }
  if (!fileKey || fileKey.length === 0) throw passwordProtectedError();
  if (algorithm === 4 && fileKey.length < 16) fileKey = Buffer.concat([fileKey, Buffer.alloc(16 - fileKey.length)]);
  const key = fileKey;
  const objectKey = (number: number, generation: number, aes: boolean) =>
    md5(
      key,
      Buffer.from([
        number & 0xff,
        (number >> 8) & 0xff,
        (number >> 16) & 0xff,
        generation & 0xff,
        (generation >> 8) & 0xff,
      ]),
      aes ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0),
    ).subarray(0, Math.min(key.length + 5, 16));
  if (algorithm <= 2) return (number, generation, data) => rc4(objectKey(number, generation, false), data);
  // V 4 and 5: the streams' crypt filter (/StmF, by default /Identity: no decryption).
  const method =
    streamFilter === undefined || streamFilter === 'Identity' || !cryptFilters?.startsWith('<<')
      ? 'None'
      : cryptMethod(cryptFilters, streamFilter, lookup);
  switch (method) {
    case 'None':
      return (_number, _generation, data) => data;
    case 'V2':
      return (number, generation, data) => rc4(objectKey(number, generation, false), data);
    case 'AESV2':
      return (number, generation, data) => decryptAesStream('aes-128-cbc', objectKey(number, generation, true), data);
    case 'AESV3':
      return (_number, _generation, data) => decryptAesStream('aes-256-cbc', key, data);
    default:
      throw cannotBeChecked();
  }
}

/** The /CFM of the crypt filter `name` in /CF ('None' when it has none, as pdf.js reads it). */
function cryptMethod(cryptFilters: string, name: string, lookup: Lookup): string {
  const filter = ownValues(cryptFilters, lookup).value(name);
  if (!filter?.startsWith('<<')) return 'None';
  const { keys, value } = ownValues(filter, lookup);
  return (keys.has('CFM') ? nameOf(value('CFM')) : undefined) ?? 'None';
}

/** PDF 32000-1 algorithm 2 with the empty password, checked against /U (algorithms 4 and 5); null: a password is needed. */
function rc4FileKey(
  fileId: Buffer,
  owner: Buffer,
  user: Buffer,
  flags: number,
  revision: number,
  keyLength: number,
  encryptMetadata: boolean,
): Buffer | null {
  const permissions = Buffer.from([flags & 0xff, (flags >> 8) & 0xff, (flags >> 16) & 0xff, (flags >>> 24) & 0xff]);
  const extra = revision >= 4 && !encryptMetadata ? Buffer.from([0xff, 0xff, 0xff, 0xff]) : Buffer.alloc(0);
  let hash = md5(PADDING, owner, permissions, fileId, extra);
  const bytes = keyLength >> 3;
  if (revision >= 3) for (let i = 0; i < 50; i += 1) hash = md5(hash.subarray(0, bytes));
  const key = hash.subarray(0, bytes);
  let check: Buffer;
  if (revision >= 3) {
    check = rc4(key, md5(PADDING, fileId));
    for (let j = 1; j <= 19; j += 1)
      check = rc4(
        key.map((byte) => byte ^ j),
        check,
      );
  } else check = rc4(key, PADDING);
  return check.every((byte, k) => user[k] === byte) ? key : null;
}

/** ISO 32000-2 algorithm 2.B: the hash of revision 6 (`userKey`: /U's 48 bytes for the owner's hash, else none). */
export function hash2B(password: Buffer, salt: Buffer, userKey: Buffer = Buffer.alloc(0)): Buffer {
  let k = createHash('sha256').update(password).update(salt).update(userKey).digest();
  for (let round = 0; ; round += 1) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, userKey])));
    const e = aesCbcEncrypt(k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let i = 0; i < 16; i += 1) sum += e[i]!;
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3]!)
      .update(e)
      .digest();
    if (round >= 63 && e[e.length - 1]! <= round - 31) return k.subarray(0, 32);
  }
}

/** AES-128-CBC encryption without padding (algorithm 2.B's step). */
function aesCbcEncrypt(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv('aes-128-cbc', key, iv).setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/**
 * A stream's data decrypted as pdf.js's AES ciphers do: its first 16 bytes the IV, whole blocks
 * only, the last block's padding removed when it is well formed.
 */
function decryptAesStream(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Uint8Array): Uint8Array {
  if (data.length < 32) return new Uint8Array(0);
  const blocks = Math.floor((data.length - 16) / 16) * 16;
  return decryptAes(
    algorithm,
    key,
    Buffer.from(data.buffer, data.byteOffset, 16),
    Buffer.from(data.buffer, data.byteOffset + 16, blocks),
    true,
  );
}

function decryptAes(
  algorithm: 'aes-128-cbc' | 'aes-256-cbc',
  key: Buffer,
  iv: Buffer,
  data: Buffer,
  unpad: boolean,
): Buffer {
  const decipher = createDecipheriv(algorithm, key, iv).setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(data), decipher.final()]);
  if (!unpad || plain.length === 0) return plain;
  const pad = plain[plain.length - 1]!;
  if (pad > 16) return plain;
  for (let i = plain.length - 1; i >= plain.length - pad; i -= 1) if (plain[i] !== pad) return plain;
  return plain.subarray(0, plain.length - pad);
}

/** RC4 (ARCFOUR), its own inverse. */
export function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i += 1) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k += 1) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[k] = data[k]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}

/** A string value's bytes as pdf.js's lexer reads them (literal with its escapes, or hex); null: not a string. */
export function stringBytes(value: string): Buffer | null {
  if (value.startsWith('<') && !value.startsWith('<<')) {
    const digits = value.slice(1, value.indexOf('>') < 0 ? undefined : value.indexOf('>')).replace(/[^0-9A-Fa-f]/g, '');
    return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
  }
  if (!value.startsWith('(')) return null;
  const out: number[] = [];
  let depth = 0;
  for (let at = 0; at < value.length; at += 1) {
    const char = value[at]!;
    if (char === '(') {
      if (depth++ > 0) out.push(0x28);
    } else if (char === ')') {
      if (--depth === 0) break;
      out.push(0x29);
    } else if (char === '\\') {
      const next = value[++at];
      if (next === undefined) break;
      const escapes: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c };
      if (next in escapes) out.push(escapes[next]!);
      else if (next >= '0' && next <= '7') {
        let code = Number(next);
        for (let i = 0; i < 2 && value[at + 1]! >= '0' && value[at + 1]! <= '7'; i += 1)
          code = code * 8 + Number(value[++at]);
        out.push(code & 0xff);
      } else if (next === '\r') {
        if (value[at + 1] === '\n') at += 1;
      } else if (next !== '\n') out.push(next.charCodeAt(0) & 0xff);
    } else out.push(char.charCodeAt(0) & 0xff);
  }
  return Buffer.from(out);
}

function cannotBeChecked(): ExtractionError {
  return new ExtractionError(
    'encrypted',
    'This PDF is encrypted in a way that cannot be checked before it is read. Please remove the encryption (for example, print it to a new PDF) and upload it again.',
  );
}
