import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built app is served by the API process (apps/server/src/http/static-site.ts) under a strict
 * CSP (script-src 'self', connect-src 'self'), so everything is bundled: no CDN, no inline script.
 * In development, Vite serves the app and forwards /api to the API on port 3000.
 */
export default defineConfig({
  root: webRoot,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Fonts are self-hosted files; small ones may be inlined, which the CSP allows (font-src data:).
    assetsInlineLimit: 4096,
    rollupOptions: {
      output: {
        // Libraries change less often than our code: separate chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // pdf.js is big and only needed once someone opens a PDF: its own chunk, loaded on demand.
          if (/node_modules\/(pdfjs-dist|react-pdf)\//.test(id)) return 'pdf';
          if (/node_modules\/(@mui|@emotion)\//.test(id)) return 'mui';
          if (/node_modules\/(react|react-dom|react-router|react-router-dom|scheduler)\//.test(id)) return 'react';
          // Everything else stays where Rollup puts it: a library only a lazy screen uses (KaTeX,
          // markdown) must not be pulled into a chunk that the landing page loads.
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
