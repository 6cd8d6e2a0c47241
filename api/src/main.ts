/**
 * Process entry: configuration, database, the app, and a graceful shutdown that drains
 * requests before stopping the database, so SIGINT/SIGTERM leave no postgres behind.
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
    bootLog.info(`${signal} received: draining requests, then stopping`);
    const force = setTimeout(() => {
      console.error('[reshelf] shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    try {
      await app?.close();
      await stopBackground?.();
      await database?.stop();
      clearTimeout(force);
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
