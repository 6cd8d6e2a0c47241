/**
 * The server-functions port (spec §7). Embedded: the shared logic runs in-process on our
 * pool. Hosted: the BFF invokes the Supabase Edge Function (edge-functions.ts, through
 * supabase-js) with the service key and the caller's bearer token, and maps the failure kinds
 * of spec §8 — failed to send, relay error, non-2xx (a 401 becomes UNAUTHORIZED; 400, 403 and
 * 409 keep their meaning).
 */
import type pg from 'pg';
import {
  type AdminMetrics,
  type AdminPeriod,
  adminCleanupListings,
  adminMetrics,
  type CleanupAnswer,
  type CleanupResult,
  type CleanupSampleItem,
  FunctionConflictError,
  FunctionForbiddenError,
  FunctionInputError,
  type SqlClient,
} from '../../../../supabase/functions/_shared/admin.ts';
import {
  type SeedInput,
  type SeedResult,
  type SnapshotBook,
  seedOpenLibraryRecent,
} from '../../../../supabase/functions/_shared/seed.ts';
import { AppError } from '../../errors.ts';

export type { AdminMetrics, CleanupAnswer, CleanupResult, CleanupSampleItem, SeedInput, SeedResult };

export interface Caller {
  /** The signed-in staff member's access token, forwarded to hosted functions. */
  accessToken?: string;
  /** Who calls: recorded as the actor of what a function changes (in-process). */
  userId?: string;
}

export interface CleanupCall {
  /** Preview only: what would be withdrawn; nothing changes. */
  dryRun: boolean;
  /** The preview's digest; a run refuses when the set has changed since. */
  expected?: string;
}

export interface ServerFunctions {
  readonly kind: 'in-process' | 'edge';
  adminMetrics(input: { period: AdminPeriod }, caller: Caller): Promise<AdminMetrics>;
  adminCleanupListings(input: CleanupCall, caller: Caller): Promise<CleanupAnswer>;
  seedOpenLibraryRecent(input: SeedInput, caller: Caller): Promise<SeedResult>;
}

export function poolClient(pool: pg.Pool): SqlClient {
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      const result = await pool.query(text, params);
      return result.rows as Row[];
    },
  };
}

async function inputErrorsAsBadInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FunctionInputError) throw new AppError('BAD_INPUT', error.message);
    if (error instanceof FunctionForbiddenError) throw new AppError('FORBIDDEN', error.message);
    if (error instanceof FunctionConflictError) throw new AppError('CONFLICT', error.message);
    throw error;
  }
}

/** The function's body for a call: `{dry_run}` and, when confirming, `{expected}`. */
export function cleanupBody(input: CleanupCall): { dry_run: boolean; expected?: string } {
  return input.expected ? { dry_run: input.dryRun, expected: input.expected } : { dry_run: input.dryRun };
}

export interface InProcessOptions {
  /**
   * The books seed-openlibrary-recent uses. The embedded backend never reaches the network,
   * so it always seeds from the bundled snapshot of real books.
   */
  snapshot: readonly SnapshotBook[];
}

export function createInProcessFunctions(pool: pg.Pool, options: InProcessOptions): ServerFunctions {
  const sql = poolClient(pool);
  return {
    kind: 'in-process',
    adminMetrics: (input) => inputErrorsAsBadInput(() => adminMetrics(sql, input)),
    adminCleanupListings: (input, caller) =>
      inputErrorsAsBadInput(() => {
        if (!caller.userId) throw new AppError('UNAUTHENTICATED', 'Session expired—please sign in');
        return adminCleanupListings(sql, cleanupBody(input), caller.userId);
      }),
    seedOpenLibraryRecent: (input) =>
      inputErrorsAsBadInput(() => seedOpenLibraryRecent(sql, input, { snapshot: options.snapshot })),
  };
}
