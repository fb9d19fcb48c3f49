/**
 * pdf.js's legacy build bundles core-js, which on Node 20 replaces a few built-ins for the whole
 * process with JavaScript polyfills: `Array.prototype.push` (about 3x slower, for an edge case of
 * arrays longer than 2^32), `JSON.parse` and `Function.prototype.toString`. A grading server
 * should not pay that everywhere, so the originals are captured here, before pdf.js loads (this
 * module is imported first by pdfjs.ts), and put back once it has loaded. The polyfills only add
 * behaviour pdf.js does not use.
 */
const NATIVE_BUILTINS = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [Function.prototype, 'toString'],
] as const;

const captured = NATIVE_BUILTINS.map(([owner, key]) => ({
  owner,
  key,
  descriptor: Object.getOwnPropertyDescriptor(owner, key),
}));

export function restoreNativeBuiltins() {
  for (const { owner, key, descriptor } of captured) {
    if (descriptor) Object.defineProperty(owner, key, descriptor);
  }
}
