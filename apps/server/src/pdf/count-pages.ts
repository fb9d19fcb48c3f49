/**
 * How many pages a stored PDF has, to check that a comment's region points at a page that exists.
 * pdf-lib reads only the document structure (no page content is decoded), and the file was checked
 * and capped in size when it was submitted; null when the file cannot be read as a PDF.
 * pdf-lib is imported at the first call, not at start (about 3.5 MB of heap an idle server does
 * not need, docs/decisions/0047-idle-server-loads-on-first-use.md).
 */
export async function countPdfPages(content: Uint8Array): Promise<number | null> {
  const { PDFDocument } = await import('pdf-lib');
  try {
    const document = await PDFDocument.load(content, { ignoreEncryption: true, updateMetadata: false });
    return document.getPageCount();
  } catch {
    return null;
  }
}
