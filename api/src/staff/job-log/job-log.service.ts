/**
 * The job log (/admin/logs): every run of the time-based jobs (features/jobs) from `job_runs`,
 * newest first: which job, when it started and finished, how many rows it moved, and its
 * error. Filter by job and to failed runs; 50 at a time by keyset.
 */
import type { Database } from '../../db/index.ts';
import { keysetPage } from '../../db/search.ts';
import { JOB_NAMES } from '../../platform/jobs/names.ts';

export interface JobRun {
  id: string;
  job: string;
  startedAt: string;
  finishedAt: string | null;
  moved: number;
  error: string | null;
}

export function jobNames(): string[] {
  return [...JOB_NAMES].sort();
}

export async function searchJobRuns(
  db: Database,
  filter: { job?: string; errorsOnly?: boolean; before?: string; limit: number },
): Promise<{ rows: JobRun[]; nextBefore: string | null }> {
  let query = db
    .selectFrom('job_runs')
    .select(['id', 'job', 'started_at', 'finished_at', 'affected', 'error']);
  if (filter.job) query = query.where('job', '=', filter.job);
  if (filter.errorsOnly) query = query.where('error', 'is not', null);
  if (filter.before) query = query.where('id', '<', filter.before);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const { page, nextBefore } = keysetPage(rows, filter.limit);
  return {
    rows: page.map((row) => ({
      id: String(row.id),
      job: row.job,
      startedAt: row.started_at.toISOString(),
      finishedAt: row.finished_at?.toISOString() ?? null,
      moved: row.affected,
      error: row.error,
    })),
    nextBefore,
  };
}
