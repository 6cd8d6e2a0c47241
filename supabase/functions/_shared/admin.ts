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

/** The spec's answer of admin-cleanup-listings (§3), kept as it is. */
export interface CleanupResult {
  duplicates_removed: number;
  no_image_removed: number;
  total_deleted: number;
}

export const CLEANUP_RULES = ['duplicate', 'no_image'] as const;
export type CleanupRule = (typeof CLEANUP_RULES)[number];

/** One listing the clean-up takes (or, in a dry run, would take). */
export interface CleanupSampleItem {
  listing_id: string;
  slug: string | null;
  title: string;
  authors: string;
  seller_name: string;
  rule: CleanupRule;
  price_minor: number | null;
}

/**
 * What the function answers: the spec's three counts and, for the BFF, whether it was a dry
 * run, the digest of the exact set (a confirmation sends it back as `expected`), up to five
 * listings of each rule, and after a run the listings withdrawn and the run's id.
 */
export interface CleanupAnswer extends CleanupResult {
  dry_run: boolean;
  digest: string;
  sample: CleanupSampleItem[];
  listing_ids: string[];
  run_id: string | null;
}

export interface CleanupInput {
  dryRun: boolean;
  /** The preview's digest: a run refuses when the set has changed since. */
  expected: string | null;
}

/** Bad input from the caller: the function answers 400 with this message. */
export class FunctionInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FunctionInputError';
  }
}

/** A staff member without the role this call needs: the function answers 403. */
export class FunctionForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FunctionForbiddenError';
  }
}

/** The data changed under the caller (a stale confirmation): the function answers 409. */
export class FunctionConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FunctionConflictError';
  }
}

/** Moderators may preview the clean-up; only admins may run it (the BFF checks this first). */
export const CLEANUP_ADMIN_ONLY_MESSAGE = 'Access denied: admin role required';

/** The SQLSTATE admin_cleanup_listings raises when the preview's digest no longer matches. */
const CLEANUP_CHANGED_STATE = 'RSCHG';

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

/** `{}` (the spec's call: run), `{dry_run: true}` (preview), `{expected: digest}` (confirmed run). */
export function parseCleanupInput(body: unknown): CleanupInput {
  if (body === undefined || body === null) return { dryRun: false, expected: null };
  if (!isRecord(body)) throw new FunctionInputError('The body must be a JSON object');
  for (const key of Object.keys(body)) {
    if (key !== 'dry_run' && key !== 'expected') {
      throw new FunctionInputError(`Unknown field "${key}": send dry_run and expected only`);
    }
  }
  const dryRun = body.dry_run ?? false;
  if (typeof dryRun !== 'boolean') throw new FunctionInputError('dry_run must be true or false');
  const expected = body.expected ?? null;
  if (expected !== null && (typeof expected !== 'string' || !/^[0-9a-f]{32}$/.test(expected))) {
    throw new FunctionInputError('expected must be the digest a dry run answered (32 hex characters)');
  }
  return { dryRun, expected };
}

interface CleanupRow {
  duplicates_removed: number | string;
  no_image_removed: number | string;
  total_deleted: number | string;
  digest: string;
  sample: CleanupSampleItem[] | string;
  listing_ids: string[] | string | null;
  run_id: string | null;
}

/** A uuid[] as node-postgres or Deno's pg hands it over (an array, or its text form). */
function uuidArray(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value || value === '{}') return [];
  return value.replace(/^\{|\}$/g, '').split(',');
}

/**
 * admin-cleanup-listings: with `dry_run` what would be withdrawn, changing nothing (staff);
 * otherwise the withdrawal itself (admins; `actorId` is recorded as who did it). One SQL
 * function does both, so the preview and the run cannot disagree about the rules.
 */
export async function adminCleanupListings(
  sql: SqlClient,
  body: unknown,
  actorId: string,
): Promise<CleanupAnswer> {
  const input = parseCleanupInput(body);
  if (!input.dryRun && !(await isAdmin(sql, actorId))) {
    throw new FunctionForbiddenError(CLEANUP_ADMIN_ONLY_MESSAGE);
  }
  let rows: CleanupRow[];
  try {
    rows = await sql.query<CleanupRow>(
      `select duplicates_removed, no_image_removed, total_deleted, digest, sample, listing_ids, run_id
       from public.admin_cleanup_listings($1::boolean, $2::uuid, $3::text)`,
      [input.dryRun, actorId, input.expected],
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === CLEANUP_CHANGED_STATE) {
      throw new FunctionConflictError((error as Error).message);
    }
    throw error;
  }
  const row = rows[0];
  if (!row) throw new Error('admin_cleanup_listings returned no row');
  const sample =
    typeof row.sample === 'string' ? (JSON.parse(row.sample) as CleanupSampleItem[]) : row.sample;
  return {
    duplicates_removed: Number(row.duplicates_removed),
    no_image_removed: Number(row.no_image_removed),
    total_deleted: Number(row.total_deleted),
    dry_run: input.dryRun,
    digest: row.digest,
    sample: sample.map((item) => ({
      ...item,
      price_minor: item.price_minor === null ? null : Number(item.price_minor),
    })),
    listing_ids: uuidArray(row.listing_ids),
    run_id: row.run_id,
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

/** Admins are people with a user_roles row admin, compared lower-cased. */
export async function isAdmin(sql: SqlClient, userId: string): Promise<boolean> {
  const rows = await sql.query<{ admin: boolean }>(
    "select exists (select 1 from public.user_roles where user_id = $1 and lower(btrim(role)) = 'admin') as admin",
    [userId],
  );
  return rows[0]?.admin === true;
}
