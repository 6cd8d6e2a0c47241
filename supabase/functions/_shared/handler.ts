/**
 * The Edge Functions' HTTP shell (Deno). Only the Reshelf API may call a function: the
 * request must carry the service-role key as `apikey` and the signed-in staff member's
 * access token as `Authorization: Bearer`. The token is verified with SUPABASE_JWT_SECRET
 * and the caller's staff role is checked in the database again (defence in depth: the API
 * already checked). Answers: 200 with the result, 400 for bad input, 401, 403 (not staff, or not
 * the role the call needs), 405, 409 (the data changed under a confirmation), 500.
 */
// @ts-types="@types/pg"
import pg from 'pg';
import { jwtVerify } from 'jose';
import {
  FunctionConflictError,
  FunctionForbiddenError,
  FunctionInputError,
  isStaff,
  type SqlClient,
} from './admin.ts';

export interface FunctionContext {
  sql: SqlClient;
  body: unknown;
  userId: string;
}

export type FunctionWork = (context: FunctionContext) => Promise<unknown>;

let pool: pg.Pool | undefined;

function env(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`${name} is not set for this function`);
  return value;
}

function database(): SqlClient {
  pool ??= new pg.Pool({ connectionString: env('SUPABASE_DB_URL'), max: 3 });
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

async function callerId(request: Request): Promise<string | null> {
  const header = request.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  if (!token) return null;
  try {
    const key = new TextEncoder().encode(env('SUPABASE_JWT_SECRET'));
    const { payload } = await jwtVerify(token, key, { audience: 'authenticated', algorithms: ['HS256'] });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

export interface HandlerOptions {
  /** The database; the pool on SUPABASE_DB_URL when not given (tests pass a fake). */
  sql?: () => SqlClient;
}

export function createHandler(
  name: string,
  work: FunctionWork,
  options: HandlerOptions = {},
): (request: Request) => Promise<Response> {
  const connect = options.sql ?? database;
  return async (request) => {
    if (request.method !== 'POST') return json(405, { error: `${name} accepts POST only` });
    if (request.headers.get('apikey') !== env('SUPABASE_SERVICE_ROLE_KEY')) {
      return json(401, { error: `${name} is called by the Reshelf API only` });
    }
    const userId = await callerId(request);
    if (!userId) return json(401, { error: 'Session expired—please sign in' });
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
