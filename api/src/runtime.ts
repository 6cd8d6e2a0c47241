/**
 * Brings up the database for a configuration: the embedded PostgreSQL (unless
 * DATABASE_URL names another), the auth bootstrap and migrations for the embedded
 * backend. (bootstrap.ts adds the services and the demo seed.)
 */
import pg from 'pg';
import { type AppConfig, ConfigError } from './config.ts';
import { createDatabase, type DatabaseHandle } from './db/index.ts';
import { migrate } from './db/migrate.ts';

export const EMBEDDED_DATABASE_NAME = 'reshelf';

export interface RuntimeLogger {
  info(message: string): void;
  debug(message: string): void;
}

export interface RunningDatabase {
  handle: DatabaseHandle;
  url: string;
  embedded: boolean;
  /** Closes the pool, then stops the embedded server if we started one. */
  stop(): Promise<void>;
}

export async function ensureDatabaseExists(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

export async function startDatabase(config: AppConfig, log: RuntimeLogger): Promise<RunningDatabase> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    if (config.backend !== 'embedded') {
      throw new ConfigError(['DATABASE_URL is required when BACKEND=supabase']);
    }
    if (config.env === 'production') {
      // loadConfig refuses this first; kept for configurations made another way.
      throw new ConfigError(['DATABASE_URL is required in production']);
    }
    const started = Date.now();
    // Loaded only here: the embedded PostgreSQL is a development dependency, absent from
    // production installs (`pnpm install --prod`, the Docker image).
    const { startEmbeddedPostgres } = await import('./db/embedded.ts');
    const server = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (line) => log.debug(line) });
    stopEmbedded = () => server.stop();
    try {
      await ensureDatabaseExists(server.url(), EMBEDDED_DATABASE_NAME);
    } catch (error) {
      await server.stop();
      throw error;
    }
    url = server.url(EMBEDDED_DATABASE_NAME);
    log.info(
      `embedded PostgreSQL ready on port ${server.port} (data in ${config.dataDir}) in ${Date.now() - started} ms`,
    );
  }

  let handle: DatabaseHandle | undefined;
  try {
    if (config.backend === 'embedded') {
      const result = await migrate(url, { bootstrap: true, log: (line) => log.info(line) });
      log.info(`migrations: ${result.applied.length} applied, ${result.alreadyApplied} already in place`);
    }
    handle = createDatabase(url, { max: config.databasePoolMax });
  } catch (error) {
    await handle?.close();
    await stopEmbedded?.();
    throw error;
  }

  const ready = handle;
  let stopping: Promise<void> | undefined;
  return {
    handle: ready,
    url,
    embedded: Boolean(stopEmbedded),
    stop() {
      stopping ??= (async () => {
        await ready.close();
        await stopEmbedded?.();
      })();
      return stopping;
    },
  };
}
