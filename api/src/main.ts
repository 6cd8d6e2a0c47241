/**
 * Process entry: configuration, database, the app, and a graceful shutdown. On SIGINT (Ctrl+C)
 * or SIGTERM, in order: stop taking connections and drain the requests in flight (app.close,
 * whose hooks also end the realtime hub's and the mail sender's LISTEN and write the last
 * request-log lines), stop the job runner, close the pool, stop PostgreSQL; then one line, and
 * exit 0. The embedded PostgreSQL runs in a process group of its own (db/embedded.ts), so the
 * terminal's Ctrl+C reaches this process alone and the database stops last, when asked, rather
 * than first, under everyone's feet (eight "connection lost" lines and a stack trace).
 */
import { buildApp } from './app.ts';
import { prepare } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { MigrationError } from './db/migrate.ts';
import { startJobRunner } from './jobs.ts';
import type { RunningDatabase } from './runtime.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const bootLog = {
    info: (message: string) => console.info(`[reshelf] ${message}`),
    warn: (message: string) => console.warn(`[reshelf] warning: ${message}`),
    debug: (message: string) => {
      if (config.logLevel === 'debug' || config.logLevel === 'trace') console.info(`[postgres] ${message}`);
    },
  };

  let database: RunningDatabase | undefined;
  let stopBackground: (() => Promise<void>) | undefined;
  let shuttingDown = false;
  const shutdown = async (signal: string, app?: { close(): Promise<void> }) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const started = Date.now();
    const force = setTimeout(() => {
      console.error('[reshelf] shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    try {
      await app?.close();
      await stopBackground?.();
      await database?.stop();
      clearTimeout(force);
      bootLog.info(
        `stopped (${signal}) in ${Date.now() - started} ms: requests drained, jobs and listeners ended, database closed`,
      );
      process.exit(0);
    } catch (error) {
      console.error('[reshelf] error during shutdown', error);
      process.exit(1);
    }
  };

  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => void shutdown(signal, app));
  }

  const prepared = await prepare(config, bootLog);
  database = prepared.database;
  if (shuttingDown) return;
  app = await buildApp({
    config,
    database: database.handle,
    secrets: prepared.secrets,
    services: prepared.services,
  });
  await app.listen({ port: config.port, host: config.host });
  // Reservation lapses and other time-based transitions, from PostgreSQL (see jobs.ts).
  const jobLog = (message: string, error?: unknown) =>
    error ? app?.log.error({ err: error }, message) : app?.log.info(message);
  const stopJobs = startJobRunner(
    {
      db: database.handle.db,
      payments: prepared.services.payments,
      mailer: prepared.services.mailer,
      storage: prepared.services.storage,
      origin: config.siteOrigin,
      log: jobLog,
      // On a session connection of its own (DATABASE_DIRECT_URL when set): see jobs.ts.
      lock: (key) => database.handle.tryAdvisoryLock(key),
    },
    // A first round soon after start: reservations a crash left behind lapse without waiting.
    { log: jobLog, firstRunMs: 5_000 },
  );
  stopBackground = stopJobs;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(`[reshelf] ${error.message}`);
  } else {
    console.error('[reshelf] failed to start:', error);
  }
  process.exit(1);
});
