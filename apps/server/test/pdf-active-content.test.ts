import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, PDFName, PDFString, type PDFObject } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, questions, submissions } from '../src/db/schema.ts';
import { findActiveContent } from '../src/pdf/active-content.ts';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { buildPackedEncryptedPdf, type Encryption } from '../src/demo/pdf-structures.ts';
import { extractPdfText } from '../src/pdf/extract-text.ts';
import { FILE_CSP } from '../src/http/routes/file-routes.ts';
import { createCourseWorld, fetchFile, type CourseWorld } from './support/course-fixtures.ts';
import { makePdf } from './support/files.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 15, item 5: active content in uploaded PDFs. Each PDF is generated here with pdf-lib, as a
 * hostile student or a careless export would make it, and uploaded through the real API: every
 * kind is refused with a 400 naming what it holds, nothing is stored; honest PDFs (a LaTeX-style
 * "open at page 1" destination included) are accepted. File responses never let a viewer run scripts.
 */

let t: TestApp;
let world: CourseWorld;
beforeAll(async () => {
  t = await createTestApp();
  world = await createCourseWorld(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A one-page answer, then `change` adds what the case needs to the document. */
async function answerPdf(
  change: (document: PDFDocument) => void | Promise<void>,
  options: { useObjectStreams?: boolean } = {},
): Promise<Buffer> {
  const document = await PDFDocument.load(await buildTextPdf({ paragraphs: ['My answer is 4.'] }));
  await change(document);
  return Buffer.from(await document.save({ useObjectStreams: options.useObjectStreams ?? true }));
}

/** What pdf-lib's `context.obj` takes for a dictionary (its own type is not exported). */
interface PdfEntries {
  [name: string]: PdfLiteral | PDFObject;
}
type PdfLiteral = PdfEntries | PdfLiteral[] | string | number | boolean | null | undefined;

const action = (document: PDFDocument, entries: PdfEntries) => document.context.obj(entries);
const jsAction = (document: PDFDocument) =>
  action(document, { Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert("owned")') });

function addAnnotation(document: PDFDocument, entries: PdfEntries) {
  const page = document.getPage(0);
  const annotation = document.context.register(
    document.context.obj({ Type: 'Annot', Rect: [50, 700, 200, 720], ...entries }),
  );
  page.node.set(PDFName.of('Annots'), document.context.obj([annotation]));
}

const CASES: [string, () => Promise<Buffer>, string][] = [
  [
    'document-level JavaScript (name tree)',
    () => answerPdf((d) => d.addJavaScript('main', 'app.alert(1)')),
    'JavaScript',
  ],
  [
    'a JavaScript OpenAction',
    () => answerPdf((d) => d.catalog.set(PDFName.of('OpenAction'), d.context.register(jsAction(d)))),
    'JavaScript, an automatic action when the file opens (OpenAction)',
  ],
  [
    'a Launch action on a link',
    () =>
      answerPdf((d) =>
        addAnnotation(d, { Subtype: 'Link', A: action(d, { S: 'Launch', F: PDFString.of('calc.exe') }) }),
      ),
    'a Launch action',
  ],
  [
    'additional actions (AA) on a page',
    () => answerPdf((d) => d.getPage(0).node.set(PDFName.of('AA'), d.context.obj({ O: jsAction(d) }))),
    'JavaScript, additional actions (AA)',
  ],
  [
    'an embedded file',
    () =>
      answerPdf((d) =>
        d.attach(Buffer.from('MZ not really a program'), 'setup.exe', { mimeType: 'application/octet-stream' }),
      ),
    'embedded files',
  ],
  ['a RichMedia annotation', () => answerPdf((d) => addAnnotation(d, { Subtype: 'RichMedia' })), 'RichMedia content'],
  [
    'an XFA form',
    () =>
      answerPdf((d) =>
        d.catalog.set(PDFName.of('AcroForm'), d.context.obj({ Fields: [], XFA: PDFString.of('<xdp/>') })),
      ),
    'an XFA form',
  ],
];

async function submit(pdf: Buffer) {
  const form = await multipart({ file: pdfPart(pdf, 'answer.pdf') });
  return t.app.inject({
    method: 'POST',
    url: `/api/assignments/${world.assignment._id}/questions/${world.question._id}/submit`,
    headers: { ...world.student.auth, ...form.headers },
    payload: form.payload,
  });
}

describe('uploads with active content', () => {
  it.each(CASES)(
    'refuses a submission with %s, says what it holds, and stores nothing',
    async (_label, build, holds) => {
      const filesBefore = (await t.ctx.db.select().from(files)).length;
      const response = await submit(await build());
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.code).toBe('UNSUPPORTED_FILE');
      expect(body.message).toBe(
        `"answer.pdf" contains ${holds.replace(/, ([^,]+)$/, ' and $1')}, which a PDF viewer could run or open. Such files are not accepted. Export or print it to a new PDF (for example "Save as PDF" or "Microsoft Print to PDF") and upload that.`,
      );
      expect((await t.ctx.db.select().from(files)).length).toBe(filesBefore);
      const stored = await t.ctx.db
        .select()
        .from(submissions)
        .where(and(eq(submissions.questionId, world.question._id), eq(submissions.studentId, world.student.id)));
      expect(stored).toHaveLength(0);
    },
  );

  it('sees names hidden by #-escapes in any case, in a file without object streams', async () => {
    const plain = await answerPdf((d) => d.catalog.set(PDFName.of('OpenAction'), jsAction(d)), {
      useObjectStreams: false,
    });
    // The escaped name is longer, so the offsets after it are off: pdf-lib, like viewers, still reads the objects.
    const escaped = Buffer.from(plain.toString('latin1').replace('/JavaScript', '/J#61vaScr#69pt'), 'latin1');
    expect(escaped.toString('latin1')).toContain('/J#61vaScr#69pt');
    expect(await findActiveContent(escaped)).toContain('JavaScript');
    expect((await submit(escaped)).statusCode).toBe(400);
  });

  it('refuses a file pdf-lib cannot parse when its raw bytes name JavaScript', async () => {
    const junk = Buffer.from('%PDF-1.7\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >>\n%%EOF\n');
    expect(await findActiveContent(junk)).toEqual([
      'JavaScript',
      'an automatic action when the file opens (OpenAction)',
    ]);
  });

  it('refuses a question or solution PDF with active content, and creates no question', async () => {
    const before = (await t.ctx.db.select().from(questions)).length;
    const form = await multipart({
      title: 'Question 2',
      points: '10',
      questionFile: pdfPart(await makePdf('What is 3 + 3?'), 'question.pdf'),
      solutionFile: pdfPart(await answerPdf((d) => d.addJavaScript('x', 'app.alert(1)')), 'solution.pdf'),
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/assignments/${world.assignment._id}/questions`,
      headers: { ...world.instructor.auth, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^"solution\.pdf" contains JavaScript/);
    expect((await t.ctx.db.select().from(questions)).length).toBe(before);
  });

  it('accepts honest PDFs, including an "open at page 1, fit" destination as LaTeX writes it', async () => {
    const fitOnOpen = await answerPdf((d) =>
      d.catalog.set(PDFName.of('OpenAction'), d.context.obj([d.getPage(0).ref, PDFName.of('Fit')])),
    );
    expect(await findActiveContent(fitOnOpen)).toEqual([]);
    const goTo = await answerPdf((d) =>
      d.catalog.set(PDFName.of('OpenAction'), d.context.obj({ S: 'GoTo', D: [d.getPage(0).ref, 'Fit'] })),
    );
    expect(await findActiveContent(goTo)).toEqual([]);
    const link = await answerPdf((d) =>
      addAnnotation(d, { Subtype: 'Link', A: action(d, { S: 'URI', URI: PDFString.of('https://example.edu') }) }),
    );
    expect(await findActiveContent(link)).toEqual([]);
    const response = await submit(fitOnOpen);
    expect(response.statusCode).toBe(201);
  });
});

/**
 * Decision 0113: an encrypted file whose objects sit in object streams (a permissions password with
 * object streams, as Acrobat, Word and qpdf write one) is read as pdf.js opens it, with the empty
 * user password: accepted when honest, refused for what it hides there. Before, every such file
 * was refused as "encrypted contents that cannot be checked".
 *
 * The fixtures were written by qpdf 11.3.0 from an honest answer (buildTextPdf, "My answer is 4.
 * Encrypted honest text.") and from the same answer with a link that launches calc.exe (pdf-lib,
 * saved without object streams): `qpdf --encrypt '' owner 256 -- --object-streams=generate IN OUT`
 * (AESV3, R 6) and `qpdf --encrypt '' owner 128 --use-aes=y -- --object-streams=generate IN OUT`
 * (AESV2, R 4). qpdf packs the page, its annotations and the action in an object stream.
 */
describe('encrypted files whose objects sit in object streams', () => {
  const fixture = (name: string) => readFile(new URL(`./fixtures/${name}`, import.meta.url));
  const HONEST_TEXT = 'My answer is 4. Encrypted honest text.';

  it.each(['qpdf-aes256-object-streams.pdf', 'qpdf-aes128-object-streams.pdf'])(
    'accepts an honest one written by qpdf (%s), and its text is read',
    async (name) => {
      const pdf = await fixture(name);
      expect(pdf.toString('latin1')).toMatch(/\/Encrypt \d+ 0 R/);
      expect(pdf.toString('latin1')).toContain('/Type /ObjStm');
      expect(await findActiveContent(pdf)).toEqual([]);
      expect((await extractPdfText(new Uint8Array(pdf))).text).toBe(HONEST_TEXT);
      expect((await submit(pdf)).statusCode).toBe(201);
    },
  );

  it('refuses one written by qpdf whose Launch action is packed in its encrypted object stream', async () => {
    const pdf = await fixture('qpdf-aes256-launch-in-object-stream.pdf');
    // Nothing outside the encrypted object stream names the action.
    expect(pdf.toString('latin1')).not.toContain('Launch');
    expect(await findActiveContent(pdf)).toEqual(['a Launch action']);
    const response = await submit(pdf);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^"answer\.pdf" contains a Launch action, which a PDF viewer could run/);
  });

  const ENCRYPTIONS: Encryption[] = ['rc4-40', 'rc4-128', 'aes-128', 'aes-256'];

  it.each(ENCRYPTIONS)(
    'accepts an honest one encrypted with %s, its catalog and page packed too',
    async (encryption) => {
      const pdf = buildPackedEncryptedPdf('My answer (the second one) is 4.', { encryption });
      expect(await findActiveContent(pdf)).toEqual([]);
      expect((await extractPdfText(pdf)).text).toBe('My answer (the second one) is 4.');
    },
  );

  it.each(ENCRYPTIONS)('finds JavaScript and a Launch action packed in one encrypted with %s', async (encryption) => {
    const withScript = buildPackedEncryptedPdf('My answer is 4.', { encryption, action: 'JavaScript' });
    expect(Buffer.from(withScript).toString('latin1')).not.toContain('JavaScript');
    expect(await findActiveContent(withScript)).toEqual(['JavaScript']);
    const withLaunch = buildPackedEncryptedPdf('My answer is 4.', { encryption, action: 'Launch' });
    expect(await findActiveContent(withLaunch)).toEqual(['a Launch action']);
  });

  it('still refuses one whose object streams cannot be read: a user password, data that does not unpack', async () => {
    const locked = buildPackedEncryptedPdf('My answer is 4.', { encryption: 'aes-256', userPassword: 'secret' });
    expect(await findActiveContent(locked)).toEqual(['encrypted contents that cannot be checked']);
    // The object stream's encrypted data changed in its middle: it no longer inflates.
    const damaged = Buffer.from(buildPackedEncryptedPdf('My answer is 4.', { encryption: 'aes-256' }));
    const text = damaged.toString('latin1');
    const data = text.indexOf('stream\n', text.indexOf('/Type /ObjStm')) + 'stream\n'.length;
    for (let at = data + 40; at < data + 56; at += 1) damaged[at] = damaged[at]! ^ 0xff;
    expect(await findActiveContent(damaged)).toEqual(['encrypted contents that cannot be checked']);
    expect((await submit(damaged)).statusCode).toBe(400);
  });
});

describe('file responses', () => {
  it('are served so that no viewer runs scripts: sandboxed CSP, exact type, nosniff, our own filename', async () => {
    const response = await fetchFile(t.app, world.question.questionFile);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(FILE_CSP);
    const directives = FILE_CSP.split(';').map((directive) => directive.trim());
    expect(directives).toContain('sandbox');
    expect(directives).toContain("default-src 'none'");
    expect(FILE_CSP).not.toContain('allow-scripts');
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe('inline; filename="question.pdf"');
  });

  it('serves a stored file of a type the upload checks do not know as a download of octet-stream', async () => {
    const [row] = await t.ctx.db.select().from(questions).where(eq(questions.id, world.question._id));
    await t.ctx.db.update(files).set({ mimeType: 'text/html' }).where(eq(files.id, row!.questionFileId));
    const response = await fetchFile(t.app, world.question.questionFile);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe('attachment; filename="question.bin"');
    expect(response.headers['content-security-policy']).toBe(FILE_CSP);
    await t.ctx.db.update(files).set({ mimeType: 'application/pdf' }).where(eq(files.id, row!.questionFileId));
  });
});
