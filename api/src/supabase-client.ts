/**
 * The supabase-js client the hosted adapters share for Edge Functions and Storage (the identity
 * adapter uses auth-js's AuthClient on its own: it needs two keys). Server-side only: it holds
 * the service key (legacy `service_role` JWT or a new `sb_secret_…` key), keeps no session and
 * never opens Realtime.
 *
 * Imported only in hosted mode (services.ts loads the adapters lazily): supabase-js is large
 * and warns about Node 20 when it is loaded.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';

export interface ServerClientOptions {
  /** The project URL, e.g. https://abc.supabase.co. */
  url: string;
  /** The service key: sent as `apikey` (and, for Storage, as the bearer when no user token is given). */
  serviceRoleKey: string;
  /** Injected in tests to see the exact requests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * Realtime is never used by the BFF. supabase-js builds its Realtime client eagerly, and on
 * Node 20 (no global WebSocket) that throws unless a transport is given: this one is never
 * constructed, and says why if it ever is.
 */
class NoRealtime {
  constructor() {
    throw new Error('The Reshelf BFF does not use Supabase Realtime');
  }
}

export function createServerClient(options: ServerClientOptions): SupabaseClient {
  return createClient(options.url.replace(/\/$/, ''), options.serviceRoleKey, {
    // No user session lives in this client: every call acts with the service key, or with
    // the caller's token passed explicitly (functions.invoke).
    accessToken: async () => null,
    realtime: { transport: NoRealtime as unknown as never },
    global: options.fetch ? { fetch: options.fetch } : {},
  });
}
