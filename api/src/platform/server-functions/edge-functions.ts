/**
 * The hosted server-functions adapter: the Supabase Edge Functions, invoked with supabase-js's
 * `functions.invoke`. The service key goes as `apikey` (the project's gateway wants it; the
 * function checks it is the BFF calling), the signed-in staff member's access token as
 * `Authorization: Bearer` (the function verifies it against the project's JWT keys and checks
 * the staff role again).
 *
 * supabase-js's three error classes are spec §8's three failure kinds:
 * - FunctionsFetchError, the request could not be sent (or timed out) → 503 UNAVAILABLE;
 * - FunctionsRelayError, Supabase's relay answered `x-relay-error: true` → 502 BAD_GATEWAY;
 * - FunctionsHttpError, the function answered non-2xx → 401 UNAUTHORIZED ("Session
 *   expired—please sign in"), 400, 403 and 409 keep their meaning and the function's message,
 *   anything else → 502 BAD_GATEWAY.
 */
import { type FunctionsFetchError, FunctionsHttpError, FunctionsRelayError } from '@supabase/supabase-js';
import { AppError } from '../../errors.ts';
import { createServerClient } from '../../supabase-client.ts';
import { cleanupBody, type ServerFunctions } from './server-functions.ts';

export interface EdgeFunctionsOptions {
  /** The project URL (functions live under /functions/v1/<name>). */
  url: string;
  /** The service key: the legacy `service_role` JWT or a new `sb_secret_…` key. */
  serviceRoleKey: string;
  fetch?: typeof fetch;
  /** How long one call may take before it counts as not sent (30 s). */
  timeoutMs?: number;
}

export const SESSION_EXPIRED_MESSAGE = 'Session expired—please sign in';

/** The function's own `{error}` message from a non-2xx answer, when it sent one. */
async function messageOf(response: Response | undefined): Promise<string | undefined> {
  if (!response) return undefined;
  try {
    const payload = (await response.json()) as unknown;
    if (typeof payload === 'object' && payload && 'error' in payload && typeof payload.error === 'string') {
      return payload.error;
    }
  } catch {
    // Not JSON: nothing to show.
  }
  return undefined;
}

export function createEdgeFunctions(options: EdgeFunctionsOptions): ServerFunctions {
  const client = createServerClient(options);

  async function invoke<T>(name: string, body: unknown, accessToken: string | undefined): Promise<T> {
    if (!accessToken) throw new AppError('UNAUTHENTICATED', SESSION_EXPIRED_MESSAGE);
    const { data, error } = await client.functions.invoke(name, {
      method: 'POST',
      body: (body ?? {}) as Record<string, unknown>,
      headers: { Authorization: `Bearer ${accessToken}` },
      timeout: options.timeoutMs ?? 30_000,
    });
    if (error instanceof FunctionsRelayError) {
      throw new AppError(
        'BAD_GATEWAY',
        `The ${name} function could not be reached (relay error). Please try again.`,
        { status: (error.context as Response | undefined)?.status },
      );
    }
    if (error instanceof FunctionsHttpError) {
      const response = error.context as Response | undefined;
      const status = response?.status ?? 0;
      const message = (await messageOf(response)) ?? `${name} failed`;
      switch (status) {
        case 400:
          throw new AppError('BAD_INPUT', message);
        case 401:
          throw new AppError('UNAUTHENTICATED', SESSION_EXPIRED_MESSAGE);
        case 403:
          throw new AppError('FORBIDDEN', message);
        case 409:
          throw new AppError('CONFLICT', message);
        default:
          throw new AppError('BAD_GATEWAY', `${name} failed (HTTP ${status}): ${message}`, { status });
      }
    }
    if (error) {
      // FunctionsFetchError: failed to send, or no answer in time. The function may never
      // have run; the caller can try again.
      throw new AppError(
        'UNAVAILABLE',
        `Could not reach the ${name} function. Please try again in a moment.`,
        {
          cause: String((error as FunctionsFetchError).context ?? error),
        },
      );
    }
    if (typeof data !== 'object' || data === null) {
      throw new AppError('BAD_GATEWAY', `${name} answered something other than JSON`);
    }
    return data as T;
  }

  return {
    kind: 'edge',
    adminMetrics: (input, caller) => invoke('admin-metrics', input, caller.accessToken),
    adminCleanupListings: (input, caller) =>
      invoke('admin-cleanup-listings', cleanupBody(input), caller.accessToken),
    seedOpenLibraryRecent: (input, caller) => invoke('seed-openlibrary-recent', input, caller.accessToken),
  };
}
