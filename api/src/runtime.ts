/**
 * Brings up the database for a configuration: the embedded PostgreSQL (unless
 * DATABASE_URL names another), the auth bootstrap and migrations for the embedded
 * backend. (bootstrap.ts adds the services and the demo seed.)
 *
 * Two connections (decision 0026): migrations run as the schema's owner (the embedded
 * superuser, or DATABASE_MIGRATION_URL, else DATABASE_URL); the pool that serves requests
 * connects as the runtime role — embedded, always `reshelf_app`, given a login here; with
 * DATABASE_URL, whoever it names. Start-up reports which, and refuses a runtime role that
 * lacks what the BFF needs.
 */
import pg from 'pg';
import { type AppConfig, ConfigError } from './config.ts';
import { createDatabase, type DatabaseHandle } from './db/index.ts';
import { migrate } from './db/migrate.ts';
import {
  inspectRuntimeRole,
  provisionRuntimeRole,
  RUNTIME_ROLE,
  type RuntimeRoleReport,
  runtimeRolePassword,
  withCredentials,
} from './db/runtime-role.ts';

export const EMBEDDED_DATABASE_NAME = 'reshelf';

export interface RuntimeLogger {
  info(message: string): void;
  debug(message: string): void;
  /** Something an operator should fix (falls back to info). */
  warn?(message: string): void;
}

export interface RunningDatabase {
  handle: DatabaseHandle;
  /** The runtime connection (the pool's). */
  url: string;
  /** The owner's connection, which migrations use (the same as `url` when only one is configured). */
  ownerUrl: string;
  /** Who the runtime connection is. */
  runtimeRole: RuntimeRoleReport;
  embedded: boolean;
  /** Closes the pool, then stops the embedded server if we started one. */
  stop(): Promise<void>;
}

export async function ensureDatabaseExists(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  // A lost connection fails the query in progress; without a listener it would end the process.
  client.on('error', () => {});
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
  let ownerUrl = config.databaseMigrationUrl ?? config.databaseUrl;
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
    const server = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      log: (line) => log.debug(line),
      notice: (line) => log.info(line),
    });
    stopEmbedded = () => server.stop();
    try {
      await ensureDatabaseExists(server.url(), EMBEDDED_DATABASE_NAME);
    } catch (error) {
      await server.stop();
      throw error;
    }
    url = ownerUrl = server.url(EMBEDDED_DATABASE_NAME);
    log.info(
      `embedded PostgreSQL ready on port ${server.port} (data in ${config.dataDir}) in ${Date.now() - started} ms`,
    );
  }

  let handle: DatabaseHandle | undefined;
  let runtimeRole: RuntimeRoleReport;
  try {
    if (config.backend === 'embedded') {
      const result = await migrate(ownerUrl!, { bootstrap: true, log: (line) => log.info(line) });
      log.info(`migrations: ${result.applied.length} applied, ${result.alreadyApplied} already in place`);
    }
    if (stopEmbedded) {
      // Embedded: the pool always connects as the runtime role, never as the superuser.
      const password = await runtimeRolePassword(config.dataDir);
      await provisionRuntimeRole(ownerUrl!, password);
      url = withCredentials(ownerUrl!, RUNTIME_ROLE, password);
    } else if (config.backend === 'embedded' && config.databaseMigrationUrl) {
      // Docker and self-hosted: the owner gives the runtime role named in DATABASE_URL its login
      // and that password, so a fresh or an existing database needs no step by hand.
      const runtime = new URL(url);
      if (decodeURIComponent(runtime.username) === RUNTIME_ROLE && runtime.password) {
        await provisionRuntimeRole(ownerUrl!, decodeURIComponent(runtime.password)).catch((error: Error) =>
          (log.warn ?? log.info)(
            `database: could not give ${RUNTIME_ROLE} its login as the owner (${error.message}); using it as it is`,
          ),
        );
      }
    }
    handle = createDatabase(url, {
      // LISTEN and session locks need a session: DATABASE_DIRECT_URL when the pool's string is
      // a transaction pooler (decision 0032).
      ...(config.databaseDirectUrl ? { sessionConnectionString: config.databaseDirectUrl } : {}),
      max: config.databasePoolMax,
      maxWaiting: config.databasePoolMaxWaiting,
      onConnectionError: (error, where) =>
        log.info(`database connection lost (${where}): ${error.message}; reconnecting`),
    });
    try {
      runtimeRole = await inspectRuntimeRole(handle.pool);
    } catch (error) {
      const who = decodeURIComponent(new URL(url).username) || 'the runtime role';
      throw new Error(
        `Could not connect to the database as ${who} (DATABASE_URL): ${(error as Error).message}. ` +
          `Check its password, or give it a login as the owner: alter role ${who} login password '…'; ` +
          '(docker/README.md, docs/hosted-supabase.md).',
      );
    }
    checkRuntimeRole(runtimeRole, log);
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
    ownerUrl: ownerUrl ?? url,
    runtimeRole,
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

/**
 * Says who the runtime connection is; stops on one that cannot do the BFF's work (it would
 * see no rows, or fail on the first write) with what to grant.
 */
export function checkRuntimeRole(report: RuntimeRoleReport, log: RuntimeLogger): void {
  if (!report.superuser && !report.bypassRls && !report.ownsTables) {
    throw new Error(
      `The database role ${report.role} (DATABASE_URL) cannot bypass row-level security, so the BFF would see ` +
        `no rows: run \`alter role ${report.role} bypassrls;\` as the owner (see docker/README.md).`,
    );
  }
  if (report.missing.length) {
    throw new Error(
      `The database role ${report.role} (DATABASE_URL) lacks privileges the BFF needs: ${report.missing.join('; ')}. ` +
        `Apply the migrations as the owner (they grant ${RUNTIME_ROLE} what it needs), or see docker/README.md.`,
    );
  }
  if (report.superuser || report.ownsTables) {
    (log.warn ?? log.info)(
      `database: the BFF connects as ${report.role}, which ${report.superuser ? 'is a superuser' : 'owns the tables'}: ` +
        `grants and policies are no second wall. Connect as the runtime role ${RUNTIME_ROLE} ` +
        '(DATABASE_URL) and keep the owner for migrations (DATABASE_MIGRATION_URL): docker/README.md.',
    );
    return;
  }
  log.info(`database: the BFF connects as ${report.role} (not superuser, owns no tables)`);
}
