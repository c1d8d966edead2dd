import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The API `npm run dev:web` sends every path but the dashboard's own to (LNK_API, default the API's port). */
const api = process.env['LNK_API'] ?? 'http://localhost:3000';

export default defineConfig(({ command }) => {
  // A build is production's whatever NODE_ENV the shell or the test runner has (Jest sets test): Vite
  // takes NODE_ENV for its production flag, and the JSX transform and React follow it; a development
  // build is twice the size.
  if (command === 'build') process.env['NODE_ENV'] = 'production';
  return {
    root: here,
    // Served by the API at /app (libs/shared/web-app); its client routes live under it.
    base: '/app/',
    plugins: [react()],
    resolve: { alias: { '@lnk/sdk': fileURLToPath(new URL('../../libs/sdk/src/index.ts', import.meta.url)) } },
    build: {
      outDir: fileURLToPath(new URL('../../dist/apps/web', import.meta.url)),
      emptyOutDir: true,
      // The CSP on /app allows no inline script: no polyfill script is written into index.html (every
      // browser the dashboard supports has modulepreload), and no asset is inlined as a data: module.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
    },
    server: {
      port: 5173,
      strictPort: true,
      // The whole service appears on Vite's port: the API answers every path outside /app, and the session
      // endpoints under /app/auth, so the cookie and the Origin check work as they do in production.
      proxy: { '^/(?!app(?:/|$))|^/app/auth/': { target: api, changeOrigin: false, xfwd: true } },
    },
  };
});
