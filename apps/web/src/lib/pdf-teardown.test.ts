import { describe, expect, it } from 'vitest';
import { ignorePdfTeardown, isPdfTeardown } from './pdf-teardown.ts';

/** A rejection event as the browser dispatches it; jsdom has no PromiseRejectionEvent. */
function rejection(reason: unknown): Event & { reason: unknown } {
  return Object.assign(new Event('unhandledrejection', { cancelable: true }), { reason });
}

describe('pdf.js teardown', () => {
  it('recognises the rejections pdf.js leaves behind when a document is closed while opening', () => {
    expect(isPdfTeardown(new Error('Worker was terminated'))).toBe(true);
    expect(isPdfTeardown({ name: 'AbortException', message: 'Worker was terminated.' })).toBe(true);
    expect(isPdfTeardown(new Error('Invalid PDF structure.'))).toBe(false);
    expect(isPdfTeardown('Worker was terminated')).toBe(false);
    expect(isPdfTeardown(null)).toBe(false);
  });

  it('keeps only the teardown out of the console; other rejections still reach it', () => {
    const scope = new EventTarget();
    ignorePdfTeardown(scope as unknown as Window);
    const teardown = rejection(new Error('Worker was terminated'));
    const failure = rejection(new Error('Invalid PDF structure.'));
    scope.dispatchEvent(teardown);
    scope.dispatchEvent(failure);
    expect(teardown.defaultPrevented).toBe(true);
    expect(failure.defaultPrevented).toBe(false);
  });
});
