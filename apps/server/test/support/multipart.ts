/**
 * Builds multipart/form-data bodies for app.inject with the platform's own encoder (FormData +
 * Response), so tests send exactly what a browser would.
 */
export interface FilePart {
  content: Buffer | Uint8Array;
  filename?: string;
  /** The type the "browser" claims; the server ignores it and sniffs content. */
  contentType?: string;
}

export type FormValue = string | FilePart;

export interface MultipartRequest {
  payload: Buffer;
  headers: { 'content-type': string };
}

export async function multipart(parts: Record<string, FormValue | FormValue[] | undefined>): Promise<MultipartRequest> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    for (const item of [value].flat()) {
      if (item === undefined) continue;
      if (typeof item === 'string') {
        form.append(name, item);
      } else {
        const blob = new Blob([item.content], { type: item.contentType ?? 'application/octet-stream' });
        form.append(name, blob, item.filename ?? 'upload.bin');
      }
    }
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}

export const pdfPart = (content: Buffer | Uint8Array, filename = 'answer.pdf'): FilePart => ({
  content,
  filename,
  contentType: 'application/pdf',
});
