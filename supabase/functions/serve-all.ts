/**
 * Serves every function under /functions/v1/<name>, as `supabase functions serve` does:
 * used by the tests that drive the Edge Functions over HTTP against a local PostgreSQL.
 *   deno run --allow-net --allow-env --allow-read --allow-sys serve-all.ts <port>
 */
import { handler as adminCleanupListings } from './admin-cleanup-listings/handler.ts';
import { handler as adminMetrics } from './admin-metrics/handler.ts';
import { handler as seedOpenLibraryRecent } from './seed-openlibrary-recent/handler.ts';

const routes: Record<string, (request: Request) => Promise<Response>> = {
  'admin-metrics': adminMetrics,
  'admin-cleanup-listings': adminCleanupListings,
  'seed-openlibrary-recent': seedOpenLibraryRecent,
};

const port = Number(Deno.args[0] ?? 54321);
Deno.serve(
  { port, hostname: '127.0.0.1', onListen: () => console.info(`functions listening on ${port}`) },
  (request) => {
    const name = /^\/functions\/v1\/([a-z0-9-]+)$/.exec(new URL(request.url).pathname)?.[1];
    const route = name ? routes[name] : undefined;
    if (!route) return new Response(JSON.stringify({ error: 'Function not found' }), { status: 404 });
    return route(request);
  },
);
