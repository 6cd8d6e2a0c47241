/**
 * A typed tRPC client for integration tests: `createTRPCClient<AppRouter>` whose fetch is the
 * app's `inject` (no socket), so a test calls `api(t.app, token).messages.member.send.mutate({...})`
 * and reads a typed answer. A renamed procedure, a wrong input or a misread output fails
 * type-checking, not at run time.
 *
 * One request per call (httpLink, no batching), sent as the old string helpers sent it: a GET
 * with `?input=` for a query, a JSON POST for a mutation, with the caller's bearer token,
 * cookies and extra headers (e.g. `WEB`, the web client header). A refused call rejects with a
 * TRPCClientError; `refusal`, `failure` and `statusOf` read its real HTTP status, error code and
 * message for assertions.
 *
 * A test that must send input the schema forbids (to see it refused) says so with `as never`.
 */
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { FastifyInstance } from 'fastify';
import type { AppRouter } from '../router.ts';

export interface CallerOptions {
  /** Sent as `Authorization: Bearer <token>` (a session's access token, or an `rsk_` API token). */
  token?: string | null;
  /** Sent as the `Cookie` header (a browser session). */
  cookie?: string | null;
  /** Any other headers, e.g. `WEB` from ./auth.ts (the web client header). */
  headers?: Record<string, string>;
}

export type TestClient = ReturnType<typeof createTRPCClient<AppRouter>>;
/** What a procedure takes and answers, e.g. `RouterInputs['selling']['listings']['update']`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** The app's tRPC API as a caller: a bearer token, or options (cookie, headers); none for anyone. */
export function api(app: FastifyInstance, caller: string | CallerOptions | null = null): TestClient {
  const options: CallerOptions = typeof caller === 'string' ? { token: caller } : (caller ?? {});
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: 'http://localhost/trpc',
        fetch: (url, init) => injectFetch(app, String(url), init ?? {}, options),
      }),
    ],
  });
}

async function injectFetch(
  app: FastifyInstance,
  url: string,
  init: RequestInit,
  caller: CallerOptions,
): Promise<Response> {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => {
    headers[key] = value;
  });
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  if (caller.cookie) headers.cookie = caller.cookie;
  for (const [key, value] of Object.entries(caller.headers ?? {})) headers[key.toLowerCase()] = value;
  const { pathname, search } = new URL(url);
  const response = await app.inject({
    method: (init.method ?? 'GET') as 'GET' | 'POST',
    url: `${pathname}${search}`,
    headers,
    ...(typeof init.body === 'string' ? { payload: init.body } : {}),
  });
  const answerHeaders = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(key, String(one));
  }
  return new Response(response.rawPayload, { status: response.statusCode, headers: answerHeaders });
}

/** A refused call's HTTP status, tRPC error code (e.g. 'FORBIDDEN') and message. */
export interface Failure {
  status: number;
  code: string | undefined;
  message: string;
  /** The error's data (its code, httpStatus, path, and e.g. the `field` a refusal names). */
  data: Record<string, unknown> | undefined;
  /** The answer's headers, lower-cased names (e.g. `retry-after`). */
  headers: Record<string, string>;
}

/**
 * Awaits a call that must be refused and tells how: the HTTP status the app answered, the tRPC
 * error code and the message (the error body's, as a raw answer tells it). Throws if the call
 * succeeded, or failed without an answer from the app.
 */
export async function failure(call: Promise<unknown>): Promise<Failure> {
  const outcome = await call.then(
    (data) => ({ ok: true as const, data }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok)
    throw new Error(`expected the call to be refused, it answered ${JSON.stringify(outcome.data)}`);
  const { error } = outcome;
  if (!(error instanceof TRPCClientError)) throw error;
  const meta = error.meta as { response?: Response; responseJSON?: unknown } | undefined;
  if (!meta?.response) throw error;
  const body = meta.responseJSON as { error?: { message?: string }; message?: string } | undefined;
  const data = error.data as (Record<string, unknown> & { code?: string }) | undefined;
  return {
    status: meta.response.status,
    code: data?.code,
    data,
    message: body?.error?.message ?? body?.message ?? error.message,
    headers: Object.fromEntries(meta.response.headers.entries()),
  };
}

/** A refused call's HTTP status and message. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const { status, message } = await failure(call);
  return { status, message };
}

/** The HTTP status a call was answered with: 200 when it succeeded, the refusal's otherwise. */
export async function statusOf(call: Promise<unknown>): Promise<number> {
  const outcome = await call.then(
    () => null,
    (error: unknown) => error,
  );
  return outcome === null ? 200 : (await failure(Promise.reject(outcome))).status;
}
