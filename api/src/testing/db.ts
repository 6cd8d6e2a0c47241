/**
 * Per-test-file databases cloned from the migrated template of the run's cluster
 * (tests/setup/postgres.global.ts). Cloning takes milliseconds, so every file gets its own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../db/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the run's throwaway cluster (tests/setup/postgres.global.ts). */
    pgServerUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'reshelf_template';

export interface TestDatabase {
  name: string;
  url: string;
  handle: DatabaseHandle;
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
export async function createEmptyDatabase(): Promise<Omit<TestDatabase, 'handle'>> {
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
  return {
    name,
    url,
    handle,
    async drop() {
      await handle.close();
      await admin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
