/*
 * What `zod` means in the web build (vite.config.ts): zod itself, once `jitless` is set
 * (zod-jitless.ts, imported first, so it runs before any module that makes a schema).
 */
import './zod-jitless.ts';

export * from 'zod/v4';
export { default } from 'zod/v4';
