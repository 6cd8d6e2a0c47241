/**
 * Platform health for /global-admin: the database (reachable, how fast, how big, migrations),
 * the job runner (has every time-based job run lately, and did it fail) and the mail outbox
 * (what is queued, what failed). Each part says ok, warning or failing with the reasons, read
 * from PostgreSQL itself, so every BFF instance reports the same platform.
 */

import { readdir } from 'node:fs/promises';
import { countOf } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { MIGRATIONS_DIR } from '../../db/migrate.ts';
import { JOB_NAMES } from '../../platform/jobs/names.ts';
import { MAIL_MAX_ATTEMPTS } from '../../platform/mail/mailer.ts';

export type HealthStatus = 'ok' | 'warning' | 'failing';

/** The runner ticks every 30 s; a job not seen for this long means no runner is ticking. */
export const JOB_STALE_AFTER_MS = 5 * 60_000;
/** A message queued for longer than this has not gone out; a failed attempt this recent means sending fails. */
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
    /** Where this instance sends mail: the dev mailbox, SMTP or Resend (MAIL). */
    transport: 'dev' | 'smtp' | 'resend' | null;
    /** Waiting to be sent (including messages waiting for another attempt). */
    queued: number;
    /** Of those, messages an attempt already failed for. */
    retrying: number;
    /** When the oldest message not yet sent was queued. */
    oldestQueuedAt: string | null;
    /** Claimed by a sender right now. */
    sending: number;
    sentLastDay: number;
    failedLastDay: number;
    lastSentAt: string | null;
    /** The latest failed attempts of messages not sent since, newest first (at most 5, last 24 h). */
    lastErrors: {
      at: string;
      template: string;
      status: 'retrying' | 'failed';
      attempts: number;
      error: string;
    }[];
  };
}

const worst = (...statuses: HealthStatus[]): HealthStatus =>
  statuses.includes('failing') ? 'failing' : statuses.includes('warning') ? 'warning' : 'ok';

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

/**
 * The applied migrations, as file names, oldest first. The embedded runner (db/migrate.ts) keeps
 * them in public.schema_migrations; hosted, `supabase db push` keeps each file's version and
 * name in supabase_migrations.schema_migrations, which the runtime role reads once granted.
 */
async function appliedMigrations(db: Database): Promise<{ names: string[] } | { problem: string }> {
  const tables = await sql<{ schema: string; readable: boolean }>`
    select n.nspname as schema,
           has_schema_privilege(n.oid, 'USAGE') and has_table_privilege(c.oid, 'SELECT') as readable
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relname = 'schema_migrations' and n.nspname in ('public', 'supabase_migrations')
    order by n.nspname = 'public' desc`.execute(db);
  const table = tables.rows[0];
  if (!table) return { problem: 'No migration history: the migrations have not been applied' };
  if (!table.readable) {
    return {
      problem: `The migration history (${table.schema}.schema_migrations) cannot be read by ${await currentRole(db)}: grant it USAGE on the schema and SELECT on the table (docs/hosted-supabase.md)`,
    };
  }
  const rows =
    table.schema === 'public'
      ? await sql<{ name: string }>`select name from public.schema_migrations order by name`.execute(db)
      : await sql<{ name: string }>`
          select version || coalesce('_' || name, '') || '.sql' as name
          from supabase_migrations.schema_migrations order by version`.execute(db);
  return { names: rows.rows.map((row) => row.name) };
}

async function currentRole(db: Database): Promise<string> {
  return (await sql<{ role: string }>`select current_user as role`.execute(db)).rows[0]!.role;
}

async function databaseHealth(db: Database): Promise<PlatformHealth['database']> {
  const started = performance.now();
  await sql`select 1`.execute(db);
  const roundTripMs = Math.round((performance.now() - started) * 10) / 10;
  const facts = await sql<{ version: string; size: string; connections: number }>`
    select current_setting('server_version') as version,
           pg_database_size(current_database())::text as size,
           (select count(*)::int from pg_stat_activity where datname = current_database()) as connections
  `.execute(db);
  const history = await appliedMigrations(db);
  const applied = 'names' in history ? history.names : [];
  const appliedVersions = new Set(applied.map((name) => name.slice(0, 14)));
  // On a deployment without the migration files (a trimmed image), nothing is known to be pending;
  // nor when the history cannot be read (said below).
  const files = 'names' in history ? await readdir(MIGRATIONS_DIR).catch(() => [] as string[]) : [];
  const pending = files
    .filter((file) => file.endsWith('.sql') && !appliedVersions.has(file.slice(0, 14)))
    .sort();
  const row = facts.rows[0]!;
  const problems: string[] = [];
  if ('problem' in history) problems.push(history.problem);
  if (pending.length > 0)
    problems.push(`${countOf(pending.length, 'migration is', 'migrations are')} not applied yet`);
  if (roundTripMs > 250) problems.push(`A round trip took ${roundTripMs} ms`);
  return {
    status: problems.length ? 'warning' : 'ok',
    problems,
    roundTripMs,
    version: row.version,
    sizeBytes: Number(row.size),
    connections: row.connections,
    migrationsApplied: applied.length,
    latestMigration: applied.at(-1) ?? null,
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
  const runs = [...JOB_NAMES].sort().map((job) => {
    const last = latest.find((row) => row.job === job);
    const count = counts.find((row) => row.job === job);
    if (!last) {
      problems.push(`${job} has never run`);
      status = worst(status, 'failing');
    } else if (now.getTime() - last.started_at.getTime() > JOB_STALE_AFTER_MS) {
      problems.push(
        `${job} last ran ${countOf(minutes(now.getTime() - last.started_at.getTime()), 'minute', 'minutes')} ago`,
      );
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

async function mailHealth(
  db: Database,
  now: Date,
  transport: PlatformHealth['mail']['transport'],
): Promise<PlatformHealth['mail']> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const summary = await db
    .selectFrom('email_outbox')
    .select([
      sql<number>`count(*) filter (where status = 'queued')::int`.as('queued'),
      sql<number>`count(*) filter (where status = 'queued' and attempts > 0)::int`.as('retrying'),
      sql<Date | null>`min(created_at) filter (where status in ('queued', 'sending'))`.as('oldest_queued'),
      sql<number>`count(*) filter (where status = 'sending')::int`.as('sending'),
      sql<number>`count(*) filter (where status = 'sent' and sent_at >= ${dayAgo})::int`.as('sent'),
      sql<number>`count(*) filter (where status = 'failed' and failed_at >= ${dayAgo})::int`.as('failed'),
      sql<Date | null>`max(sent_at)`.as('last_sent'),
      // The latest attempt that failed for a reason of the sending itself (a message waiting to
      // try again, or one that ran out of attempts), not a provider refusing one message.
      sql<Date | null>`max(last_attempt_at) filter (where last_error is not null and (status = 'queued' or (status = 'failed' and attempts >= ${MAIL_MAX_ATTEMPTS})))`.as(
        'last_failed_attempt',
      ),
    ])
    .executeTakeFirstOrThrow();
  const lastErrors = await db
    .selectFrom('email_outbox')
    .select(['last_attempt_at', 'template', 'status', 'attempts', 'last_error'])
    .where('last_error', 'is not', null)
    .where('status', 'in', ['queued', 'failed'])
    .where('last_attempt_at', '>=', dayAgo)
    .orderBy('last_attempt_at', 'desc')
    .limit(5)
    .execute();
  const problems: string[] = [];
  let status: HealthStatus = 'ok';
  const oldest = summary.oldest_queued ? new Date(summary.oldest_queued) : null;
  if (oldest && now.getTime() - oldest.getTime() >= MAIL_STUCK_AFTER_MS) {
    problems.push(
      `The oldest queued message has waited ${countOf(minutes(now.getTime() - oldest.getTime()), 'minute', 'minutes')}`,
    );
    status = 'failing';
  }
  const lastSent = summary.last_sent ? new Date(summary.last_sent) : null;
  const lastFailed = summary.last_failed_attempt ? new Date(summary.last_failed_attempt) : null;
  if (
    lastFailed &&
    now.getTime() - lastFailed.getTime() < MAIL_STUCK_AFTER_MS &&
    (!lastSent || lastSent < lastFailed)
  ) {
    const waited = now.getTime() - lastFailed.getTime();
    problems.push(
      `Sending fails: the latest attempt failed ${waited < 90_000 ? 'within the last minute' : `${countOf(minutes(waited), 'minute', 'minutes')} ago`} and nothing has been sent since`,
    );
    status = 'failing';
  }
  if (summary.failed > 0) {
    problems.push(`${countOf(summary.failed, 'message', 'messages')} failed in the last 24 hours`);
    status = worst(status, 'warning');
  }
  return {
    status,
    problems,
    transport,
    queued: summary.queued,
    retrying: summary.retrying,
    oldestQueuedAt: oldest?.toISOString() ?? null,
    sending: summary.sending,
    sentLastDay: summary.sent,
    failedLastDay: summary.failed,
    lastSentAt: lastSent?.toISOString() ?? null,
    lastErrors: lastErrors.map((row) => ({
      at: (row.last_attempt_at ?? now).toISOString(),
      template: row.template,
      status: row.status === 'failed' ? 'failed' : 'retrying',
      attempts: row.attempts,
      error: row.last_error ?? '',
    })),
  };
}

export async function platformHealth(
  db: Database,
  now = new Date(),
  options: { mailTransport?: PlatformHealth['mail']['transport'] } = {},
): Promise<PlatformHealth> {
  const [database, jobs, mail] = await Promise.all([
    databaseHealth(db),
    jobHealth(db, now),
    mailHealth(db, now, options.mailTransport ?? null),
  ]);
  return {
    checkedAt: now.toISOString(),
    status: worst(database.status, jobs.status, mail.status),
    database,
    jobs,
    mail,
  };
}
