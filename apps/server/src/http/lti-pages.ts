import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The few pages the LTI launch answers itself (decision 0074): they are shown where the LMS put
 * Gradewise (a new window or a frame inside the LMS page), before the web app has a session. Plain
 * HTML, no script: they may be framed by any LMS, so they carry a CSP of their own.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageLink {
  href: string;
  label: string;
  newTab?: boolean;
}

/** Whether the caller is a browser showing a page (a form post from an LMS), not an API client. */
export function wantsPage(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/** Whether the browser shows this answer inside a frame (Fetch metadata, sent by current browsers). */
export function isFramed(request: FastifyRequest): boolean {
  return request.headers['sec-fetch-dest'] === 'iframe' || request.headers['sec-fetch-dest'] === 'frame';
}

export function sendPage(
  reply: FastifyReply,
  status: number,
  page: { title: string; message: string; link?: PageLink },
): FastifyReply {
  const link = page.link
    ? `<p><a class="button" href="${escapeHtml(page.link.href)}"${page.link.newTab ? ' target="_blank" rel="noopener"' : ''}>${escapeHtml(page.link.label)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Gradewise</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; color: #1d1b20; background: #fafafa; }
main { max-width: 36rem; margin: 0 auto; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 1.5rem; }
h1 { font-size: 1.4rem; margin-top: 0; }
.button { display: inline-block; background: #1a56db; color: #fff; padding: 0.6rem 1rem; border-radius: 6px; text-decoration: none; }
.button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
${link}
</main>
</body>
</html>
`;
  // Framable by the LMS page that opened it; nothing on it runs script or loads anything.
  reply.raw.removeHeader('x-frame-options');
  return reply
    .status(status)
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *; base-uri 'none'; form-action 'none'",
    )
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** The one script of these pages: it submits the form (the button does it without script). */
const SUBMIT_SCRIPT = 'document.forms[0].submit();';
const SUBMIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

/**
 * A page that form-posts `fields` to `action` (another site: the LMS), at once when script runs,
 * else on its button. Its CSP allows exactly that form target and that one script.
 */
export function sendFormPostPage(
  reply: FastifyReply,
  page: { title: string; message: string; action: string; fields: Record<string, string>; button: string },
): FastifyReply {
  const inputs = Object.entries(page.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · Gradewise</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; color: #1d1b20; background: #fafafa; }
main { max-width: 36rem; margin: 0 auto; background: #fff; border: 1px solid #ddd; border-radius: 8px; padding: 1.5rem; }
button { background: #1a56db; color: #fff; padding: 0.6rem 1rem; border: 0; border-radius: 6px; font: inherit; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(page.title)}</h1>
<p>${escapeHtml(page.message)}</p>
<form method="post" action="${escapeHtml(page.action)}">
${inputs}
<button type="submit">${escapeHtml(page.button)}</button>
</form>
</main>
<script>${SUBMIT_SCRIPT}</script>
</body>
</html>
`;
  reply.raw.removeHeader('x-frame-options');
  return reply
    .status(200)
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; script-src ${SUBMIT_SCRIPT_HASH}; form-action ${new URL(page.action).origin}; frame-ancestors *; base-uri 'none'`,
    )
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
