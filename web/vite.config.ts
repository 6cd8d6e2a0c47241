import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';
import { precompress } from './precompress.ts';

/** The API (BFF) listens here in development; everything below is proxied to it. */
const API_DEV_ORIGIN = 'http://127.0.0.1:3000';
// /payments: the test provider's payment page and its buttons (served by the API).
const PROXIED_PATHS = ['/trpc', '/api', '/healthz', '/readyz', '/storage', '/payments', '/dev'] as const;

/**
 * The Host header is kept as the browser sent it (no changeOrigin), so the API's same-origin
 * check sees the page's own origin; X-Forwarded-* carry the client address and protocol.
 */
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  // Anchored patterns, so /dev matches /dev and /dev/... but not a page such as /devon.
  PROXIED_PATHS.map((path) => [
    `^${path}(?:[/?]|$)`,
    { target: API_DEV_ORIGIN, xfwd: true, ...(path === '/dev' ? { bypass: serveDevPages } : {}) },
  ]),
);

/**
 * /dev also holds pages (the dev mailbox at /dev/mailbox): a browser opening one asks for HTML,
 * so serve the app instead of proxying. The API's calls there ask for other types.
 */
function serveDevPages(request: { method?: string; headers: { accept?: string } }): string | undefined {
  const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
  return wantsPage ? '/index.html' : undefined;
}

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Two builds: the browser's (web/dist) and, with `--ssr src/entry-server.tsx`, the server bundle
 * that renders the public pages (web/dist-ssr, loaded by the BFF: api/src/http/ssr.ts). The
 * server bundle carries its dependencies inside it, so it runs wherever it is copied (the
 * Docker image, the browser tests' build folder) without the web's node_modules.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root,
  // precompress: .br and .gz beside each built file, served as they are by the BFF.
  plugins: isSsrBuild ? [react(), tailwindcss()] : [react(), tailwindcss(), precompress()],
  ssr: { noExternal: true, target: 'node' },
  server: {
    port: 5173,
    strictPort: true,
    proxy,
  },
  preview: {
    port: 4173,
    proxy,
  },
  build: isSsrBuild
    ? {
        outDir: fileURLToPath(new URL('./dist-ssr', import.meta.url)),
        emptyOutDir: true,
        copyPublicDir: false,
      }
    : {
        outDir: fileURLToPath(new URL('./dist', import.meta.url)),
        emptyOutDir: true,
        rolldownOptions: {
          output: {
            // Libraries change less often than the app: separate chunks stay cached across deploys.
            codeSplitting: {
              groups: [
                // First of all: zod's configuration, in a chunk of its own that the entry imports
                // before any chunk that builds a schema (src/zod-config.ts).
                { name: 'zod-config', test: /[\\/]src[\\/]zod-config\.ts$/, priority: 10 },
                {
                  name: 'react',
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
                },
                { name: 'data', test: /[\\/]node_modules[\\/](@tanstack|@trpc)[\\/]/ },
              ],
            },
          },
        },
      },
}));
