/**
 * The Edge Functions' HTTP shell (Deno). Only the Reshelf API may call a function: the
 * request must carry one of the project's secret keys as `apikey` (a new-style `sb_secret_…`
 * key or the legacy service_role key) and the signed-in staff member's access token as
 * `Authorization: Bearer`, verified against the project's signing keys (auth.ts). The
 * caller's staff role is checked in the database again (defence in depth: the API already
 * checked). Answers: 200 with the result, 400 for bad input, 401 (no or wrong key, or a token
 * that is not a valid session: `{error, reason}`), 403 (not staff, or not the role the call
 * needs), 405, 409 (the data changed under a confirmation), 500 (a function misconfigured or
 * failing), 503 (the project's signing keys could not be fetched).
 */
// @ts-types="@types/pg"
import pg from 'pg';
import {
  FunctionConflictError,
  FunctionForbiddenError,
  FunctionInputError,
  isStaff,
  type SqlClient,
} from './admin.ts';
import {
  bearerToken,
  checkCallerKey,
  type Env,
  type Refusal,
  SESSION_EXPIRED,
  verifyAccessToken,
} from './auth.ts';

export interface FunctionContext {
  sql: SqlClient;
  body: unknown;
  userId: string;
}

export type FunctionWork = (context: FunctionContext) => Promise<unknown>;

let pool: pg.Pool | undefined;

const denoEnv: Env = (name) => Deno.env.get(name);

function database(): SqlClient {
  const url = Deno.env.get('SUPABASE_DB_URL');
  if (!url) throw new Error('SUPABASE_DB_URL is not set for this function');
  pool ??= new pg.Pool({ connectionString: url, max: 3 });
  const current = pool;
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      const result = await current.query(text, params);
      return result.rows as Row[];
    },
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function refused({ status, error, reason }: Refusal): Response {
  return json(status, { error, reason });
}

export interface HandlerOptions {
  /** The database; the pool on SUPABASE_DB_URL when not given (tests pass a fake). */
  sql?: () => SqlClient;
  /** The function's secrets; Deno.env when not given (tests pass their own). */
  env?: Env;
}

export function createHandler(
  name: string,
  work: FunctionWork,
  options: HandlerOptions = {},
): (request: Request) => Promise<Response> {
  const connect = options.sql ?? database;
  const env = options.env ?? denoEnv;
  return async (request) => {
    if (request.method !== 'POST') return json(405, { error: `${name} accepts POST only` });
    const caller = checkCallerKey(request, env, name);
    if (!caller.ok) return refused(caller.refusal);
    const token = bearerToken(request);
    if (!token) return refused({ status: 401, error: SESSION_EXPIRED, reason: 'missing_token' });
    const user = await verifyAccessToken(token, env);
    if (!user.ok) return refused(user.refusal);
    const userId = user.value;
    const text = await request.text();
    let body: unknown = {};
    if (text.trim()) {
      try {
        body = JSON.parse(text);
      } catch {
        return json(400, { error: 'The request body is not valid JSON' });
      }
    }
    try {
      const sql = connect();
      if (!(await isStaff(sql, userId))) {
        return json(403, {
          error: "You don't have permission to access the admin portal with your current account.",
        });
      }
      return json(200, await work({ sql, body, userId }));
    } catch (error) {
      if (error instanceof FunctionInputError) return json(400, { error: error.message });
      if (error instanceof FunctionForbiddenError) return json(403, { error: error.message });
      if (error instanceof FunctionConflictError) return json(409, { error: error.message });
      console.error(`${name} failed`, error);
      return json(500, { error: `${name} failed` });
    }
  };
}
