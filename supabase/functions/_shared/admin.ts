/**
 * The admin server functions' logic, written once: plain TypeScript with no runtime
 * globals and no imports, so the BFF (Node, in-process) and the Edge Functions (Deno)
 * run exactly this code. Each takes a minimal SQL client and the request body.
 */

export const ADMIN_PERIODS = ['today', 'mtd', 'last30', 'ytd'] as const;
export type AdminPeriod = (typeof ADMIN_PERIODS)[number];

export interface SqlClient {
  query<Row>(text: string, params?: unknown[]): Promise<Row[]>;
}

export interface AdminMetrics {
  disputes_open: number;
  active_listings: number;
  buyer_protection_minor: number;
}

export interface CleanupResult {
  duplicates_removed: number;
  no_image_removed: number;
  total_deleted: number;
}

/** Bad input from the caller: the function answers 400 with this message. */
export class FunctionInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FunctionInputError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseMetricsInput(body: unknown): { period: AdminPeriod } {
  const period = isRecord(body) ? body.period : undefined;
  if (period === undefined) return { period: 'mtd' };
  if (typeof period !== 'string' || !(ADMIN_PERIODS as readonly string[]).includes(period)) {
    throw new FunctionInputError(`period must be one of ${ADMIN_PERIODS.join(', ')}`);
  }
  return { period: period as AdminPeriod };
}

export async function adminMetrics(sql: SqlClient, body: unknown, now?: Date): Promise<AdminMetrics> {
  const { period } = parseMetricsInput(body);
  const rows = await sql.query<AdminMetrics>(
    'select disputes_open, active_listings, buyer_protection_minor from public.admin_metrics($1, coalesce($2::timestamptz, now()))',
    [period, now ? now.toISOString() : null],
  );
  const row = rows[0];
  if (!row) throw new Error('admin_metrics returned no row');
  return {
    disputes_open: Number(row.disputes_open),
    active_listings: Number(row.active_listings),
    buyer_protection_minor: Number(row.buyer_protection_minor),
  };
}

export async function adminCleanupListings(sql: SqlClient): Promise<CleanupResult> {
  const rows = await sql.query<CleanupResult>(
    'select duplicates_removed, no_image_removed, total_deleted from public.admin_cleanup_listings()',
  );
  const row = rows[0];
  if (!row) throw new Error('admin_cleanup_listings returned no row');
  return {
    duplicates_removed: Number(row.duplicates_removed),
    no_image_removed: Number(row.no_image_removed),
    total_deleted: Number(row.total_deleted),
  };
}

/** Staff are people with a user_roles row admin or moderator, compared lower-cased. */
export async function isStaff(sql: SqlClient, userId: string): Promise<boolean> {
  const rows = await sql.query<{ staff: boolean }>(
    "select exists (select 1 from public.user_roles where user_id = $1 and lower(btrim(role)) in ('admin', 'moderator')) as staff",
    [userId],
  );
  return rows[0]?.staff === true;
}
