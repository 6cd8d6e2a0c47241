/**
 * Platform health for /global-admin: the database (reachable, how fast, how big, migrations),
 * the job runner (has every time-based job run lately, and did it fail) and the mail outbox
 * (what is queued, what failed). Each part says ok, warning or failing with the reasons, read
 * from PostgreSQL itself, so every BFF instance reports the same platform.
 */
import { readdir } from 'node:fs/promises';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { MIGRATIONS_DIR } from '../../db/migrate.ts';
import { JOBS } from '../jobs/jobs.ts';

export type HealthStatus = 'ok' | 'warning' | 'failing';

/** The runner ticks every 30 s; a job not seen for this long means no runner is ticking. */
export const JOB_STALE_AFTER_MS = 5 * 60_000;
/** A message queued for longer than this has not gone out. */
export const MAIL_STUCK_AFTER_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface PlatformHealth {
  checkedAt: string;
  status: HealthStatus;
  database: {
    status: HealthStatus;
    problems: string[];
    roundTripMs: number;
    version: string;
    sizeBytes: number;
    connections: number;
    migrationsApplied: number;
    latestMigration: string | null;
    migrationsPending: string[];
  };
  jobs: {
    status: HealthStatus;
    problems: string[];
    runs: {
      job: string;
      lastStartedAt: string | null;
      lastFinishedAt: string | null;
      lastError: string | null;
      runsLastDay: number;
      failuresLastDay: number;
    }[];
  };
  mail: {
    status: HealthStatus;
    problems: string[];
    queued: number;
    oldestQueuedAt: string | null;
    sentLastDay: number;
    failedLastDay: number;
    lastSentAt: string | null;
    lastFailure: { at: string; error: string | null } | null;
  };
}

const worst = (...statuses: HealthStatus[]): HealthStatus =>
  statuses.includes('failing') ? 'failing' : statuses.includes('warning') ? 'warning' : 'ok';

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

async function databaseHealth(db: Database): Promise<PlatformHealth['database']> {
  const started = performance.now();
  await sql`select 1`.execute(db);
  const roundTripMs = Math.round((performance.now() - started) * 10) / 10;
  const facts = await sql<{ version: string; size: string; connections: number }>`
    select current_setting('server_version') as version,
           pg_database_size(current_database())::text as size,
           (select count(*)::int from pg_stat_activity where datname = current_database()) as connections
  `.execute(db);
  // schema_migrations belongs to the migration runner (db/migrate.ts), not to the typed schema.
  const applied = (
    await sql<{ name: string }>`select name from public.schema_migrations order by name`.execute(db)
  ).rows;
  const appliedNames = new Set(applied.map((row) => row.name));
  // On a deployment without the migration files (a trimmed image), nothing is known to be pending.
  const files = await readdir(MIGRATIONS_DIR).catch(() => [] as string[]);
  const pending = files.filter((file) => file.endsWith('.sql') && !appliedNames.has(file)).sort();
  const row = facts.rows[0]!;
  const problems: string[] = [];
  if (pending.length > 0)
    problems.push(`${pending.length} migration${pending.length === 1 ? ' is' : 's are'} not applied yet`);
  if (roundTripMs > 250) problems.push(`A round trip took ${roundTripMs} ms`);
  return {
    status: problems.length ? 'warning' : 'ok',
    problems,
    roundTripMs,
    version: row.version,
    sizeBytes: Number(row.size),
    connections: row.connections,
    migrationsApplied: applied.length,
    latestMigration: applied.at(-1)?.name ?? null,
    migrationsPending: pending,
  };
}

async function jobHealth(db: Database, now: Date): Promise<PlatformHealth['jobs']> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const latest = await db
    .selectFrom('job_runs')
    .distinctOn('job')
    .select(['job', 'started_at', 'finished_at', 'error'])
    .orderBy('job')
    .orderBy('started_at', 'desc')
    .execute();
  const counts = await db
    .selectFrom('job_runs')
    .select([
      'job',
      sql<number>`count(*)::int`.as('runs'),
      sql<number>`count(*) filter (where error is not null)::int`.as('failures'),
    ])
    .where('started_at', '>=', dayAgo)
    .groupBy('job')
    .execute();
  const problems: string[] = [];
  let status: HealthStatus = 'ok';
  const runs = Object.keys(JOBS)
    .sort()
    .map((job) => {
      const last = latest.find((row) => row.job === job);
      const count = counts.find((row) => row.job === job);
      if (!last) {
        problems.push(`${job} has never run`);
        status = worst(status, 'failing');
      } else if (now.getTime() - last.started_at.getTime() > JOB_STALE_AFTER_MS) {
        problems.push(`${job} last ran ${minutes(now.getTime() - last.started_at.getTime())} minutes ago`);
        status = worst(status, 'failing');
      } else if (last.error) {
        problems.push(`${job} failed on its last run: ${last.error}`);
        status = worst(status, 'warning');
      }
      return {
        job,
        lastStartedAt: last?.started_at.toISOString() ?? null,
        lastFinishedAt: last?.finished_at?.toISOString() ?? null,
        lastError: last?.error ?? null,
        runsLastDay: count?.runs ?? 0,
        failuresLastDay: count?.failures ?? 0,
      };
    });
  return { status, problems, runs };
}

async function mailHealth(db: Database, now: Date): Promise<PlatformHealth['mail']> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const summary = await db
    .selectFrom('email_outbox')
    .select([
      sql<number>`count(*) filter (where status = 'queued')::int`.as('queued'),
      sql<Date | null>`min(created_at) filter (where status = 'queued')`.as('oldest_queued'),
      sql<number>`count(*) filter (where status = 'sent' and created_at >= ${dayAgo})::int`.as('sent'),
      sql<number>`count(*) filter (where status = 'failed' and created_at >= ${dayAgo})::int`.as('failed'),
      sql<Date | null>`max(sent_at)`.as('last_sent'),
    ])
    .executeTakeFirstOrThrow();
  const lastFailure = await db
    .selectFrom('email_outbox')
    .select(['created_at', 'error'])
    .where('status', '=', 'failed')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const problems: string[] = [];
  let status: HealthStatus = 'ok';
  const oldest = summary.oldest_queued ? new Date(summary.oldest_queued) : null;
  if (oldest && now.getTime() - oldest.getTime() > MAIL_STUCK_AFTER_MS) {
    problems.push(
      `The oldest queued message has waited ${minutes(now.getTime() - oldest.getTime())} minutes`,
    );
    status = 'failing';
  }
  if (summary.failed > 0) {
    problems.push(`${summary.failed} message${summary.failed === 1 ? '' : 's'} failed in the last 24 hours`);
    status = worst(status, 'warning');
  }
  return {
    status,
    problems,
    queued: summary.queued,
    oldestQueuedAt: oldest?.toISOString() ?? null,
    sentLastDay: summary.sent,
    failedLastDay: summary.failed,
    lastSentAt: summary.last_sent ? new Date(summary.last_sent).toISOString() : null,
    lastFailure: lastFailure ? { at: lastFailure.created_at.toISOString(), error: lastFailure.error } : null,
  };
}

export async function platformHealth(db: Database, now = new Date()): Promise<PlatformHealth> {
  const [database, jobs, mail] = await Promise.all([
    databaseHealth(db),
    jobHealth(db, now),
    mailHealth(db, now),
  ]);
  return {
    checkedAt: now.toISOString(),
    status: worst(database.status, jobs.status, mail.status),
    database,
    jobs,
    mail,
  };
}
