/**
 * Per-test-file databases cloned from the migrated template of the run's cluster
 * (tests/setup/postgres.global.ts). Cloning takes milliseconds, so every file gets its own.
 * Tests arrange and inspect data as the owner (`handle`); the app under test connects as the
 * BFF's runtime role (`appHandle`), as it does in production (decision 0026).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { PostgresMajor } from '../db/embedded.ts';
import { createDatabase, type DatabaseHandle } from '../db/index.ts';
import { RUNTIME_ROLE, withCredentials } from '../db/runtime-role.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the run's throwaway cluster (tests/setup/postgres.global.ts). */
    pgServerUrl: string;
    /** The runtime role's password on that cluster. */
    pgAppPassword: string;
    /** That cluster's PostgreSQL major (RESHELF_PG_MAJOR: 18, or 17 as hosted Supabase). */
    pgMajor: PostgresMajor;
  }
}

export const TEMPLATE_DATABASE = 'reshelf_template';

export interface TestDatabase {
  name: string;
  /** The owner's connection (the cluster's superuser). */
  url: string;
  handle: DatabaseHandle;
  /** The BFF's runtime role's connection to the same database. */
  appUrl: string;
  /** A pool on appUrl, made on first use. */
  readonly appHandle: DatabaseHandle;
  drop(): Promise<void>;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An empty database (no migrations) for tests of the migration runner itself. */
export async function createEmptyDatabase(): Promise<Omit<TestDatabase, 'handle' | 'appUrl' | 'appHandle'>> {
  const serverUrl = inject('pgServerUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (client) => client.query(`create database ${name}`));
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: () =>
      admin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => {},
      ),
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('pgServerUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, (client) => client.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
  const url = withDatabase(serverUrl, name);
  const handle = createDatabase(url, { max: 5 });
  const appUrl = withCredentials(url, RUNTIME_ROLE, inject('pgAppPassword'));
  let appHandle: DatabaseHandle | undefined;
  return {
    name,
    url,
    handle,
    appUrl,
    get appHandle() {
      appHandle ??= createDatabase(appUrl, { max: 5 });
      return appHandle;
    },
    async drop() {
      await appHandle?.close();
      await handle.close();
      await admin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
