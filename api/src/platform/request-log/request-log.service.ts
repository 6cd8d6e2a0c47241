/**
 * The request log (/admin/logs, "Requests"): the newest API requests first, filtered by status
 * class, method, path, request id, who made them and how slow they were; 50 at a time by
 * keyset. Lines older than 14 days are pruned by the job `request_log.prune`.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike, keysetPage } from '../../db/search.ts';

export const REQUEST_LOG_DAYS = 14;
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface RequestLogFilter {
  status?: StatusClass;
  method?: string;
  /** Matches the start of the path, or a procedure anywhere in a tRPC path. */
  path?: string;
  requestId?: string;
  user?: string;
  slowerThanMs?: number;
  before?: string;
  limit: number;
}

export interface RequestLogRow {
  id: string;
  at: string;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  userEmail: string | null;
}

export async function searchRequestLog(
  db: Database,
  filter: RequestLogFilter,
): Promise<{ rows: RequestLogRow[]; nextBefore: string | null }> {
  let query = db
    .selectFrom('request_log as r')
    .leftJoin('auth.users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.at', 'r.request_id', 'r.method', 'r.path', 'r.status', 'r.duration_ms', 'u.email']);
  if (filter.status) {
    const low = Number(filter.status[0]) * 100;
    query = query.where('r.status', '>=', low).where('r.status', '<', low + 100);
  }
  if (filter.method) query = query.where('r.method', '=', filter.method);
  if (filter.path) {
    const text = escapeLike(filter.path);
    query = filter.path.startsWith('/')
      ? query.where('r.path', 'like', `${text}%`)
      : query.where('r.path', 'like', `/trpc/%${text}%`);
  }
  if (filter.requestId) query = query.where('r.request_id', '=', filter.requestId);
  if (filter.user)
    query = query.where(sql<string>`lower(u.email)`, 'like', `%${escapeLike(filter.user.toLowerCase())}%`);
  if (filter.slowerThanMs !== undefined) query = query.where('r.duration_ms', '>=', filter.slowerThanMs);
  if (filter.before) query = query.where('r.id', '<', filter.before);
  const rows = await query
    .orderBy('r.id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const { page, nextBefore } = keysetPage(rows, filter.limit);
  return {
    rows: page.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      requestId: row.request_id,
      method: row.method,
      path: row.path,
      status: row.status,
      durationMs: row.duration_ms,
      userEmail: row.email ?? null,
    })),
    nextBefore,
  };
}

/** Deletes lines older than the retention, a bounded batch per run; answers how many went. */
export async function pruneRequestLog(db: Database, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_LOG_DAYS * 24 * 60 * 60_000);
  const result = await sql`
    delete from public.request_log
    where id in (select id from public.request_log where at < ${cutoff} order by at limit 10000)
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
