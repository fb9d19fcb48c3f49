import { createCipheriv, createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { hash2B, rc4 } from '../pdf/encryption.ts';

/**
 * Hostile PDFs written by hand, object by object, for the structure check's tests and
 * bench/hostile-files.ts (decision 0108): what pdf-lib cannot write. Each is a chain of forms
 * (`forms` forms of `depth` levels each, on each of `pages` pages; pdf.js carries the nesting from
 * form to form, so its work grows with the square of forms x depth) or a page whose own contents
 * nest, written so that what pdf.js draws is not what a reader of the file's text sees:
 *
 * - `duplicates`: each form defined a second time, harmless (no nesting, no call), after the end
 *   of the file ('after-end') or in an incremental update whose cross-reference section does not
 *   name it ('unreferenced'): pdf.js follows the cross-reference table to the first definition;
 * - `packing`: the forms inside an object stream ('object-stream'), or inside an object stream
 *   that is itself inside another ('nested-object-streams'): pdf.js reads a stream packed in an
 *   object stream as any other (XRef.fetchCompressed parses with streams allowed);
 * - `encryption`: every stream encrypted by the standard security handler with an empty user
 *   password ('rc4-40': V 1 R 2; 'rc4-128': V 2 R 3; 'aes-128': V 4 R 4 AESV2; 'aes-256': V 5 R 6
 *   AESV3), which pdf.js opens without asking; `userPassword` sets a user password instead (pdf.js
 *   asks for it);
 * - buildImageFilteredPdf: the nesting written as a CCITT fax image (`/CCITTFaxDecode`, exact bit
 *   for bit), as a page's contents or as the forms.
 *
 * And an honest one pdf-lib cannot write either (buildPackedEncryptedPdf): a page of text whose
 * objects sit in an encrypted object stream, as Acrobat, Word and qpdf write a file with a
 * permissions password (decision 0113), maybe with an action hidden there.
 *
 * The same input always gives the same bytes (fixed keys, salts and ids).
 */

export type DuplicateDefinitions = 'after-end' | 'unreferenced';
export type StreamPacking = 'object-stream' | 'nested-object-streams';
export type Encryption = 'rc4-40' | 'rc4-128' | 'aes-128' | 'aes-256';

export interface RawFormsOptions {
  pages?: number;
  duplicates?: DuplicateDefinitions;
  packing?: StreamPacking;
  encryption?: Encryption;
  /** A user password (the file is then not opened without it); default empty. */
  userPassword?: string;
}

/** A chain of `forms` forms of `depth` levels on each page, written as `options` say (see above). */
export function buildRawFormsPdf(forms: number, depth: number, options: RawFormsOptions = {}): Uint8Array {
  const pages = options.pages ?? 1;
  const writer = new RawPdf();
  const catalog = writer.reserve();
  const pageTree = writer.reserve();
  const pageNumbers: number[] = [];
  const formNumbers: number[] = [];
  for (let page = 0; page < pages; page += 1) {
    let inner: number | null = null;
    for (let level = forms; level >= 1; level -= 1) {
      const draw = inner === null ? '0 0 m 1 1 l S\n' : '/Inner Do\n';
      const content = Buffer.from('q\n'.repeat(depth) + draw + 'Q\n'.repeat(depth), 'latin1');
      const resources = inner === null ? '' : ` /Resources << /XObject << /Inner ${inner} 0 R >> >>`;
      inner = writer.stream(
        `/Type /XObject /Subtype /Form /BBox [0 0 1 1]${resources} /Filter /FlateDecode`,
        deflateSync(content),
      );
      formNumbers.push(inner);
    }
    const contents = writer.stream('/Filter /FlateDecode', deflateSync(Buffer.from('/Outer Do\n', 'latin1')));
    pageNumbers.push(
      writer.object(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Outer ${inner} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  writer.set(pageTree, `<< /Type /Pages /Kids [${pageNumbers.map((n) => `${n} 0 R`).join(' ')}] /Count ${pages} >>`);
  writer.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
  if (options.packing) {
    const outer = writer.objectStream(formNumbers);
    if (options.packing === 'nested-object-streams') writer.objectStream([outer]);
  }
  if (options.encryption) writer.encrypt(options.encryption, options.userPassword ?? '');
  const harmless = (number: number) =>
    `${number} 0 obj\n<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 9 >>\nstream\n0 0 m S\n\nendstream\nendobj\n`;
  // Past the end: the upload's check looks for `%%EOF` in the file's last bytes, so one more ends it.
  if (options.duplicates === 'after-end') return writer.save(catalog, `${formNumbers.map(harmless).join('')}%%EOF\n`);
  const saved = writer.save(catalog);
  if (options.duplicates !== 'unreferenced') return saved;
  // An incremental update that redefines the forms without naming them in its own section: its
  // cross-reference section names only the catalog again, so pdf.js keeps the first definitions.
  const text = Buffer.from(saved).toString('latin1');
  const previous = /startxref\n(\d+)\n%%EOF\n$/.exec(text)![1];
  let update = formNumbers.map(harmless).join('');
  const catalogAt = text.length + update.length;
  update += `${catalog} 0 obj\n<< /Type /Catalog /Pages ${pageTree} 0 R >>\nendobj\n`;
  const xrefAt = text.length + update.length;
  update +=
    `xref\n${catalog} 1\n${String(catalogAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${writer.size} /Root ${catalog} 0 R /Prev ${previous} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text + update, 'latin1'));
}

/**
 * A page whose contents nest `depth` levels (`q` then `Q`, each followed by a tab) written as a
 * CCITT fax image (/CCITTFaxDecode, one-dimensional, /BlackIs1: each row's bits are the bytes
 * themselves): pdf.js decodes a stream's filters whatever they are meant for and reads the output
 * as drawing instructions. `as`: the page's own contents (default) or, for 'form', each page
 * drawing one form whose content is so written. `pages`: each page the same (default 1).
 */
export function buildImageFilteredPdf(
  depth: number,
  options: { pages?: number; as?: 'contents' | 'form' } = {},
): Uint8Array {
  const writer = new RawPdf();
  const catalog = writer.reserve();
  const pageTree = writer.reserve();
  const ccitt = ccittFax(Buffer.from('q\t'.repeat(depth) + 'Q\t'.repeat(depth), 'latin1'));
  const pageNumbers: number[] = [];
  for (let page = 0; page < (options.pages ?? 1); page += 1) {
    const coded = `/Filter /CCITTFaxDecode /DecodeParms << /K 0 /Columns ${ccitt.columns} /Rows ${ccitt.rows} /BlackIs1 true >>`;
    let contents: number;
    let resources = '';
    if (options.as === 'form') {
      const form = writer.stream(`/Type /XObject /Subtype /Form /BBox [0 0 1 1] ${coded}`, ccitt.data);
      resources = ` /Resources << /XObject << /F1 ${form} 0 R >> >>`;
      contents = writer.stream('', Buffer.from('/F1 Do\n', 'latin1'));
    } else contents = writer.stream(coded, ccitt.data);
    pageNumbers.push(
      writer.object(
        `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792]${resources} /Contents ${contents} 0 R >>`,
      ),
    );
  }
  writer.set(
    pageTree,
    `<< /Type /Pages /Kids [${pageNumbers.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageNumbers.length} >>`,
  );
  writer.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
  return writer.save(catalog);
}

/**
 * A file the up-front counts accept that pdf.js still spends seconds on: each of `pages` pages
 * draws one form of `depth` levels (within the counts' 2,000) `draws` times. pdf.js builds each
 * drawing's saved states again (about 4 µs an operator at this depth here, 4,000 operators a
 * drawing), so 400 drawings are some 6 s of CPU a page, bounded by the reader's 2,000,000
 * operators a file (extract-text.ts) and its CPU budgets: the tests' spinner for what the
 * extraction pool does with a slow file read through the upload's checks (decision 0108; before,
 * an encrypted chain of forms, which the counts now read). A page of it is 1.6 million operators,
 * within what the counts let one page draw (decision 0113).
 *
 * `draws` a list: forms drawing forms, each drawn that many times by the one before (the page
 * draws the first `draws[0]` times, the first draws the second `draws[1]` times, ...); the last
 * nests `depth` levels (decision 0113's hostile kind: 3 forms drawn 200 times each are 8 million
 * drawings of the last).
 */
export function buildRepeatedFormPdf(
  depth: number,
  draws: number | number[],
  options: { pages?: number } = {},
): Uint8Array {
  const writer = new RawPdf();
  const catalog = writer.reserve();
  const pageTree = writer.reserve();
  const times = typeof draws === 'number' ? [draws] : draws;
  let form = writer.stream(
    '/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode',
    deflateSync(Buffer.from('q\n'.repeat(depth) + '0 0 m 1 1 l S\n' + 'Q\n'.repeat(depth), 'latin1')),
  );
  for (const count of times.slice(1).reverse())
    form = writer.stream(
      `/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /F1 ${form} 0 R >> >> /Filter /FlateDecode`,
      deflateSync(Buffer.from('/F1 Do\n'.repeat(count), 'latin1')),
    );
  const contents = writer.stream(
    '/Filter /FlateDecode',
    deflateSync(Buffer.from('/F1 Do\n'.repeat(times[0]!), 'latin1')),
  );
  const pageNumbers = Array.from({ length: options.pages ?? 1 }, () =>
    writer.object(
      `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /F1 ${form} 0 R >> >> /Contents ${contents} 0 R >>`,
    ),
  );
  writer.set(
    pageTree,
    `<< /Type /Pages /Kids [${pageNumbers.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageNumbers.length} >>`,
  );
  writer.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
  return writer.save(catalog);
}

/** An action a link of buildPackedEncryptedPdf's page runs. */
export type PackedAction = 'JavaScript' | 'Launch';

/**
 * One page of `text` (Helvetica, one line) whose catalog, page tree, page, font and annotations
 * are packed in one object stream, every stream encrypted as `encryption` says with an empty user
 * password (`userPassword` sets one): the objects of such a file are read only once its object
 * stream is decrypted (strings packed there are not encrypted again, PDF 32000-1 7.5.7). `action`:
 * a link on the page that runs JavaScript or launches a program, packed with the rest.
 */
export function buildPackedEncryptedPdf(
  text: string,
  options: { encryption: Encryption; userPassword?: string; action?: PackedAction },
): Uint8Array {
  const writer = new RawPdf();
  const catalog = writer.reserve();
  const pageTree = writer.reserve();
  const font = writer.object('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const escaped = text.replace(/[\\()]/g, (char) => `\\${char}`);
  const contents = writer.stream(
    '/Filter /FlateDecode',
    deflateSync(Buffer.from(`BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET\n`, 'latin1')),
  );
  const packed = [catalog, pageTree, font];
  let annotations = '';
  if (options.action) {
    const run = options.action === 'JavaScript' ? '/S /JavaScript /JS (app.alert\\(1\\))' : '/S /Launch /F (calc.exe)';
    const link = writer.object(
      `<< /Type /Annot /Subtype /Link /Rect [72 700 200 720] /Border [0 0 0] /A << ${run} >> >>`,
    );
    packed.push(link);
    annotations = ` /Annots [${link} 0 R]`;
  }
  const page = writer.object(
    `<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R${annotations} >>`,
  );
  packed.push(page);
  writer.set(pageTree, `<< /Type /Pages /Kids [${page} 0 R] /Count 1 >>`);
  writer.set(catalog, `<< /Type /Catalog /Pages ${pageTree} 0 R >>`);
  writer.objectStream(packed);
  writer.encrypt(options.encryption, options.userPassword ?? '');
  return writer.save(catalog);
}

// ---------------------------------------------------------------------------------------------
// CCITT Group 3, one-dimensional (ITU-T T.4): the run lengths these files need

const WHITE_CODES: Record<number, string> = { 1: '000111', 2: '0111', 3: '1000', 4: '1011' };
const BLACK_CODES: Record<number, string> = { 1: '010', 3: '10' };
const ROW_BYTES = 256;

/**
 * `bytes` as a CCITT image of rows of ROW_BYTES bytes (the last padded with tabs), a 1 bit black:
 * each row coded as its runs, white first, without end-of-line codes. Only runs these files have
 * (`q`, `Q` and tab bytes) are coded.
 */
function ccittFax(bytes: Buffer): { data: Buffer; columns: number; rows: number } {
  const rows = Math.ceil(bytes.length / ROW_BYTES);
  const padded = Buffer.alloc(rows * ROW_BYTES, 0x09);
  bytes.copy(padded);
  let bits = '';
  const chunks: Buffer[] = [];
  const flush = (all: boolean) => {
    const whole = all ? bits.length : bits.length - (bits.length % 8);
    const out = Buffer.alloc(Math.ceil(whole / 8));
    for (let i = 0; i < whole; i += 1) if (bits[i] === '1') out[i >> 3]! |= 0x80 >> (i & 7);
    chunks.push(out);
    bits = bits.slice(whole);
  };
  for (let row = 0; row < rows; row += 1) {
    let color = 0; // white first
    let run = 0;
    const code = (length: number, black: number) => {
      const table = black ? BLACK_CODES : WHITE_CODES;
      const written = table[length];
      if (written === undefined)
        throw new Error(`ccittFax: no code for a ${black ? 'black' : 'white'} run of ${length}.`);
      bits += written;
    };
    for (let at = row * ROW_BYTES; at < (row + 1) * ROW_BYTES; at += 1) {
      for (let bit = 7; bit >= 0; bit -= 1) {
        const pixel = (padded[at]! >> bit) & 1;
        if (pixel === color) run += 1;
        else {
          code(run, color);
          color = pixel;
          run = 1;
        }
      }
    }
    code(run, color);
    if (bits.length > 8192) flush(false);
  }
  flush(true);
  return { data: Buffer.concat(chunks), columns: ROW_BYTES * 8, rows };
}

// ---------------------------------------------------------------------------------------------
// A PDF written object by object

class RawPdf {
  private readonly objects = new Map<number, Buffer>();
  private readonly packed = new Map<number, { stream: number; index: number }>();
  private readonly streams = new Set<number>();
  private encryption: { dictionary: number; id: Buffer; key: (number: number) => (data: Buffer) => Buffer } | null =
    null;
  private next = 1;

  get size(): number {
    return this.next;
  }

  reserve(): number {
    return this.next++;
  }

  set(number: number, text: string | Buffer): void {
    this.objects.set(number, typeof text === 'string' ? Buffer.from(text, 'latin1') : text);
  }

  object(text: string): number {
    const number = this.reserve();
    this.set(number, text);
    return number;
  }

  /** A stream: `entries` its dictionary's (without /Length), `data` as written. */
  stream(entries: string, data: Buffer): number {
    const number = this.reserve();
    this.set(number, streamText(entries, data));
    this.streams.add(number);
    return number;
  }

  /** The objects `numbers` packed, in order, in a new object stream (Flate); returns its number. */
  objectStream(numbers: number[]): number {
    const number = this.reserve();
    const bodies = numbers.map((n) => this.objects.get(n)!);
    let offset = 0;
    const pairs: string[] = [];
    numbers.forEach((n, index) => {
      pairs.push(`${n} ${offset}`);
      offset += bodies[index]!.length + 1;
      this.objects.delete(n);
      this.packed.set(n, { stream: number, index });
    });
    const header = Buffer.from(`${pairs.join(' ')}\n`, 'latin1');
    const body = Buffer.concat(bodies.flatMap((b) => [b, Buffer.from('\n')]));
    this.set(
      number,
      streamText(
        `/Type /ObjStm /N ${numbers.length} /First ${header.length} /Filter /FlateDecode`,
        deflateSync(Buffer.concat([header, body])),
      ),
    );
    this.streams.add(number);
    return number;
  }

  /** Encrypts every stream (at save) with the standard security handler. */
  encrypt(kind: Encryption, userPassword: string): void {
    const id = createHash('md5').update('gradewise raw forms').digest();
    const handler = securityHandler(kind, id, Buffer.from(userPassword, 'latin1'));
    this.encryption = { dictionary: this.object(handler.dictionary), id, key: handler.streamCipher };
  }

  /** The file: objects, a cross-reference table (or stream, when objects are packed), `after` past its end. */
  save(root: number, after = ''): Uint8Array {
    const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    let length = parts[0]!.length;
    const offsets = new Map<number, number>();
    for (const [number, body] of [...this.objects].sort(([a], [b]) => a - b)) {
      let written = body;
      if (this.encryption && this.streams.has(number)) written = encryptStreamText(body, this.encryption.key(number));
      offsets.set(number, length);
      const object = Buffer.concat([Buffer.from(`${number} 0 obj\n`), written, Buffer.from('\nendobj\n')]);
      parts.push(object);
      length += object.length;
    }
    const trailer = `/Size ${this.next + (this.packed.size > 0 ? 1 : 0)} /Root ${root} 0 R${
      this.encryption
        ? ` /Encrypt ${this.encryption.dictionary} 0 R /ID [<${this.encryption.id.toString('hex')}> <${this.encryption.id.toString('hex')}>]`
        : ''
    }`;
    if (this.packed.size === 0) {
      let table = `xref\n0 ${this.next}\n0000000000 65535 f \n`;
      for (let n = 1; n < this.next; n += 1) {
        const at = offsets.get(n);
        table += at === undefined ? '0000000000 65535 f \n' : `${String(at).padStart(10, '0')} 00000 n \n`;
      }
      parts.push(Buffer.from(`${table}trailer\n<< ${trailer} >>\nstartxref\n${length}\n%%EOF\n${after}`, 'latin1'));
      return new Uint8Array(Buffer.concat(parts));
    }
    // A cross-reference stream (W [1 4 2]): type 1 at an offset, type 2 in an object stream.
    const xrefNumber = this.next;
    offsets.set(xrefNumber, length);
    const rows = Buffer.alloc((xrefNumber + 1) * 7);
    for (let n = 0; n <= xrefNumber; n += 1) {
      const row = n * 7;
      const at = offsets.get(n);
      const packed = this.packed.get(n);
      if (at !== undefined) {
        rows[row] = 1;
        rows.writeUInt32BE(at, row + 1);
      } else if (packed) {
        rows[row] = 2;
        rows.writeUInt32BE(packed.stream, row + 1);
        rows.writeUInt16BE(packed.index, row + 5);
      } else rows.writeUInt16BE(n === 0 ? 0xffff : 0, row + 5);
    }
    const data = deflateSync(rows);
    parts.push(
      Buffer.from(
        `${xrefNumber} 0 obj\n<< /Type /XRef ${trailer} /W [1 4 2] /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
        'latin1',
      ),
      data,
      Buffer.from(`\nendstream\nendobj\nstartxref\n${length}\n%%EOF\n${after}`, 'latin1'),
    );
    return new Uint8Array(Buffer.concat(parts));
  }
}

function streamText(entries: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/** A stream object's text with its data encrypted (and its /Length written again). */
function encryptStreamText(body: Buffer, cipher: (data: Buffer) => Buffer): Buffer {
  const text = body.toString('latin1');
  const dataStart = text.indexOf('>>\nstream\n') + '>>\nstream\n'.length;
  const dataEnd = text.lastIndexOf('\nendstream');
  const encrypted = cipher(body.subarray(dataStart, dataEnd));
  const dictionary = text
    .slice(0, dataStart)
    .replace(/\/Length \d+ >>\nstream\n$/, `/Length ${encrypted.length} >>\nstream\n`);
  return Buffer.concat([Buffer.from(dictionary, 'latin1'), encrypted, Buffer.from('\nendstream')]);
}

// ---------------------------------------------------------------------------------------------
// The standard security handler (PDF 32000-1 7.6.3; ISO 32000-2 7.6.4.3.3-4 for AES-256)

const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => parts.reduce((hash, part) => hash.update(part), createHash('md5')).digest();
const padded = (password: Buffer) => Buffer.concat([password.subarray(0, 32), PADDING]).subarray(0, 32);
/** Fixed, so the same input gives the same bytes. */
const FILE_KEY_256 = createHash('sha256').update('gradewise file key').digest();
const IV = Buffer.alloc(16, 7);

function securityHandler(
  kind: Encryption,
  id: Buffer,
  userPassword: Buffer,
): { dictionary: string; streamCipher: (number: number) => (data: Buffer) => Buffer } {
  const permissions = -4;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  if (kind === 'aes-256') {
    // ISO 32000-2 algorithms 8 and 2.B (revision 6): /U is the hash of the password and a
    // validation salt, then both salts; /UE the file key, encrypted with the hash of the password
    // and the key salt. The owner's entries are written the same way from an empty owner password.
    const [validationSalt, keySalt] = [Buffer.alloc(8, 1), Buffer.alloc(8, 2)];
    const user = Buffer.concat([hash2B(userPassword, validationSalt, Buffer.alloc(0)), validationSalt, keySalt]);
    const userKey = createCipheriv(
      'aes-256-cbc',
      hash2B(userPassword, keySalt, Buffer.alloc(0)),
      Buffer.alloc(16),
    ).setAutoPadding(false);
    const ue = Buffer.concat([userKey.update(FILE_KEY_256), userKey.final()]);
    const [ownerValidation, ownerKeySalt] = [Buffer.alloc(8, 3), Buffer.alloc(8, 4)];
    const owner = Buffer.concat([hash2B(Buffer.alloc(0), ownerValidation, user), ownerValidation, ownerKeySalt]);
    const ownerKey = createCipheriv(
      'aes-256-cbc',
      hash2B(Buffer.alloc(0), ownerKeySalt, user),
      Buffer.alloc(16),
    ).setAutoPadding(false);
    const oe = Buffer.concat([ownerKey.update(FILE_KEY_256), ownerKey.final()]);
    const permsBlock = Buffer.concat([p, Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('Tadb'), Buffer.alloc(4)]);
    const permsCipher = createCipheriv('aes-256-ecb', FILE_KEY_256, null).setAutoPadding(false);
    const perms = Buffer.concat([permsCipher.update(permsBlock), permsCipher.final()]);
    const hex = (b: Buffer) => `<${b.toString('hex')}>`;
    return {
      dictionary: `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF /O ${hex(owner)} /U ${hex(user)} /OE ${hex(oe)} /UE ${hex(ue)} /Perms ${hex(perms)} /P ${permissions} >>`,
      streamCipher: () => (data) => aesEncrypt('aes-256-cbc', FILE_KEY_256, data),
    };
  }
  const [v, r, bits] = kind === 'rc4-40' ? [1, 2, 40] : kind === 'rc4-128' ? [2, 3, 128] : [4, 4, 128];
  const bytes = bits / 8;
  // Algorithm 3: /O from the owner password (empty: the padding) and the user password.
  let ownerHash = md5(PADDING);
  if (r >= 3) for (let i = 0; i < 50; i += 1) ownerHash = md5(ownerHash);
  let owner = rc4(ownerHash.subarray(0, bytes), padded(userPassword));
  if (r >= 3)
    for (let i = 1; i <= 19; i += 1)
      owner = rc4(
        ownerHash.subarray(0, bytes).map((byte) => byte ^ i),
        owner,
      );
  // Algorithm 2: the file's key.
  let key = md5(padded(userPassword), owner, p, id);
  if (r >= 3) for (let i = 0; i < 50; i += 1) key = md5(key.subarray(0, bytes));
  const fileKey = key.subarray(0, bytes);
  // Algorithms 4 and 5: /U.
  let user: Buffer;
  if (r === 2) user = rc4(fileKey, PADDING);
  else {
    user = rc4(fileKey, md5(PADDING, id));
    for (let i = 1; i <= 19; i += 1)
      user = rc4(
        fileKey.map((byte) => byte ^ i),
        user,
      );
    user = Buffer.concat([user, Buffer.alloc(16)]);
  }
  const objectKey = (number: number, aes: boolean) =>
    md5(
      fileKey,
      Buffer.from([number & 0xff, (number >> 8) & 0xff, (number >> 16) & 0xff, 0, 0]),
      aes ? Buffer.from('sAlT') : Buffer.alloc(0),
    ).subarray(0, Math.min(bytes + 5, 16));
  const crypt =
    kind === 'aes-128'
      ? ' /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF'
      : '';
  return {
    dictionary: `<< /Filter /Standard /V ${v} /R ${r} /Length ${bits}${crypt} /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
    streamCipher:
      kind === 'aes-128'
        ? (number) => (data) => aesEncrypt('aes-128-cbc', objectKey(number, true), data)
        : (number) => (data) => rc4(objectKey(number, false), data),
  };
}

function aesEncrypt(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv(algorithm, key, IV);
  return Buffer.concat([IV, cipher.update(data), cipher.final()]);
}
