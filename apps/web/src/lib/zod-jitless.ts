import { config } from 'zod/v4/core';

/*
 * zod's `jitless` in the browser (decision 0105). The first object schema made asks whether the
 * page may compile code (`new Function`), to build faster parsers if so. The app's CSP refuses it
 * (script-src 'self', no 'unsafe-eval'): the probe threw, was caught, and the browser reported a
 * CSP violation on every first page, in the entry's module evaluation. Under `jitless` there is no
 * probe, and parsing is what it was (the compiled parsers were never allowed here).
 *
 * Set before any schema is made: zod-in-the-browser.ts imports this module first, and the web
 * build resolves `zod` to that module (vite.config.ts).
 */
config({ jitless: true });
