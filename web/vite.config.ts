import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { overBudget } from '../scripts/first-load-js.mjs';
import { precompress } from './precompress.ts';

/** The API (BFF) listens here in development; everything below is proxied to it. */
const API_DEV_ORIGIN = 'http://127.0.0.1:3000';
// /payments: the test provider's payment page and its buttons (served by the API).
const PROXIED_PATHS = [
  '/trpc',
  '/api',
  '/healthz',
  '/readyz',
  '/storage',
  '/payments',
  '/dev',
  '/labels',
  '/webhooks',
] as const;

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
 * The first-load budget (scripts/first-load-js.mjs): the browser build fails when the home
 * page's first-load JS is over it, or index.html (every page's HTML) lists more than 10
 * modulepreloads. A size check on the build output, not a timed one.
 */
function firstLoadBudget(): Plugin {
  let outDir = '';
  return {
    name: 'reshelf-first-load-budget',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      sequential: true,
      handler() {
        const problems = overBudget(outDir);
        if (problems.length > 0) {
          throw new Error(`The first load is over its budget (docs/performance.md):\n${problems.join('\n')}`);
        }
      },
    },
  };
}

type ModuleInfo = {
  isEntry: boolean;
  importers: readonly string[];
  exports: readonly string[];
  code: string | null;
};
type ModuleGraph = { getModuleInfo(id: string): ModuleInfo | null };

/** A module that only re-exports others (`export * from …`): packages/contracts' index.ts. */
const BARREL = /^\s*(?:(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/)\s*)*(?:export\s*\*\s*from\s*['"][^'"]+['"];?\s*)+$/;

/** The names a module imports (`import { a, b as c } from …`), whatever from. */
function importedNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const [, list = ''] of code.matchAll(/import\s*\{([^}]*)\}\s*from/g)) {
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

/**
 * Whether a module is loaded with the entry, on every page: some chain of static imports leads
 * to it from the entry. Such modules are folded into one `app` chunk instead of one chunk per
 * module shared with a lazy page (a dozen 0.2 KiB icons among them), so a page lists a handful
 * of modulepreloads, not fifty (decision 0066). Through a barrel (the contracts' index.ts) a
 * module counts only when an importer of the barrel names one of its exports: the barrel's
 * other modules are dropped by tree-shaking, and folding them in would bring them (zod) back.
 */
function withTheEntry(): (id: string, graph: ModuleGraph) => boolean {
  const known = new Map<string, boolean>();
  const reaches = (id: string, graph: ModuleGraph, seen: Set<string>): boolean => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    if (seen.has(id)) return false;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) return false;
    const answer =
      info.isEntry ||
      info.importers.some((importer) => {
        const via = graph.getModuleInfo(importer);
        if (!via?.code || !BARREL.test(via.code)) return reaches(importer, graph, seen);
        // Through the barrel: only from a module on the entry's side that imports one of our names.
        return via.importers.some((user) => {
          const code = graph.getModuleInfo(user)?.code ?? '';
          const names = importedNames(code);
          return info.exports.some((name) => names.has(name)) && reaches(user, graph, new Set(seen));
        });
      });
    // Only a definite yes is kept: a no found while walking a cycle may be a yes from elsewhere.
    if (answer) known.set(id, true);
    return answer;
  };
  // The entry (index.html) and the script it names (main.tsx) stay the entry chunk.
  const isEntryScript = (id: string, graph: ModuleGraph) => {
    const info = graph.getModuleInfo(id);
    return !info || info.isEntry || info.importers.some((importer) => graph.getModuleInfo(importer)?.isEntry);
  };
  return (id, graph) => !isEntryScript(id, graph) && reaches(id, graph, new Set());
}

export default defineConfig(({ isSsrBuild }) => ({
  root,
  // precompress: .br and .gz beside each built file, served as they are by the BFF.
  plugins: isSsrBuild ? [react(), tailwindcss()] : [react(), tailwindcss(), precompress(), firstLoadBudget()],
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
        // .vite/manifest.json: what the first-load budget reads (not served: a dot folder).
        manifest: true,
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
                // Last: everything else every page loads first, in one chunk.
                {
                  debugName: 'app',
                  name: (() => {
                    const loadedFirst = withTheEntry();
                    return (id: string, graph: ModuleGraph) =>
                      !id.endsWith('.css') && loadedFirst(id, graph) ? 'app' : null;
                  })(),
                },
              ],
            },
          },
        },
      },
}));
