import { Readable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import { crc32 } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { buildTextPdf } from '../../src/demo/pdf-documents.ts';
import type { FileStorage } from '../../src/storage/file-storage.ts';

/**
 * Real documents for upload tests, built in memory. Every PDF comes from one writer,
 * src/demo/pdf-documents.ts (shared with the demo data and the benchmarks).
 */

/** A typed one-paragraph A4 PDF, the everyday upload of these tests. */
export async function makePdf(text = 'Question 1: prove that 1 + 1 = 2.'): Promise<Buffer> {
  return Buffer.from(await buildTextPdf({ paragraphs: [text], pageSize: 'a4' }));
}

/** Puts bytes the test holds in memory (the storage itself takes a stream). */
export function putBytes(storage: FileStorage, content: Buffer): Promise<string> {
  return storage.put(Readable.from([content]), content.length);
}

/** The smallest valid PNG: one transparent pixel. */
export const tinyPng = (): Buffer =>
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );

export function makeWorkbook(sheets: Record<string, unknown[][]>, bookType: 'xlsx' | 'xls' = 'xlsx'): Buffer {
  const workbook = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) {
    XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), name);
  }
  return XLSX.write(workbook, { type: 'buffer', bookType }) as Buffer;
}

export interface ZipEntry {
  name: string;
  content: Buffer;
  /** Lie in the central directory and local header about the unpacked size. */
  declaredSize?: number;
}

/** A minimal zip writer (deflate), to build hostile archives that no library would write. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.content);
    const size = entry.declaredSize ?? entry.content.length;
    const crc = crc32(entry.content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a one-sheet .xlsx, so hostile variants can swap one of them. */
export function xlsxParts(sheetXml: string): ZipEntry[] {
  const text = (value: string) => Buffer.from(value, 'utf8');
  return [
    {
      name: '[Content_Types].xml',
      content: text(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      content: text(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
          '</Relationships>',
      ),
    },
    {
      name: 'xl/workbook.xml',
      content: text(
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
          'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Roster" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: text(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
          '</Relationships>',
      ),
    },
    { name: 'xl/worksheets/sheet1.xml', content: text(sheetXml) },
  ];
}

/** Worksheet XML with inline-string cells, one row per entry of `rows`. */
export function sheetXml(rows: string[][]): string {
  const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = rows
    .map((cells, rowIndex) => {
      const cellXml = cells
        .map(
          (value, column) =>
            `<c r="${String.fromCharCode(65 + column)}${rowIndex + 1}" t="inlineStr"><is><t>${escape(value)}</t></is></c>`,
        )
        .join('');
      return `<row r="${rowIndex + 1}">${cellXml}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
}
