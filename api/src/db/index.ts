import { createHash } from 'node:crypto';
import { Kysely, type LogConfig, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './database.generated.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /** True when the database answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * LISTENs on a channel over a connection of its own, reconnecting after a failure
   * (`onConnected` runs on every (re)connection: notifications may have been missed).
   * Resolves once listening; the returned function stops. Rejects when the first connection
   * fails, leaving nothing running.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onConnected?: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * pg_trgm thresholds for every connection: how alike two texts must be for the trigram
 * operators search uses (`%` whole-text similarity, `<%` word similarity). The defaults
 * (0.3 and 0.6) miss common misspellings of a surname ("Tolkein"); these catch them without
 * flooding results. Set per connection so that every database (including cloned test
 * databases) behaves the same.
 */
export const TRIGRAM_THRESHOLDS = { similarity: 0.3, wordSimilarity: 0.5 } as const;

/**
 * A statement whose text starts with this comment runs as a named prepared statement: each
 * connection parses and plans it once and then reuses the plan (PostgreSQL re-plans for the
 * first few runs and keeps a generic plan when it is as good). Used for the catalogue's hot
 * queries, where planning a many-join statement costs more than running it. The name comes
 * from the text, so every distinct shape of a dynamic query gets its own statement.
 */
export const PREPARED_TAG = '/* prepared */';

type QueryFn = (...args: unknown[]) => unknown;

function prepareTaggedStatements(client: pg.PoolClient): void {
  const original = client.query.bind(client) as QueryFn;
  const query: QueryFn = (text, values, ...rest) => {
    if (typeof text === 'string' && text.startsWith(PREPARED_TAG) && rest.length === 0) {
      const name = `rs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
      return original({ name, text, values });
    }
    return original(text, values, ...rest);
  };
  (client as unknown as { query: QueryFn }).query = query;
}

export function createDatabase(
  connectionString: string,
  options: {
    max?: number /** Kysely's query log (the benchmark records each statement). */;
    log?: LogConfig;
  } = {},
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    application_name: 'reshelf-api',
    options: `-c pg_trgm.similarity_threshold=${TRIGRAM_THRESHOLDS.similarity} -c pg_trgm.word_similarity_threshold=${TRIGRAM_THRESHOLDS.wordSimilarity}`,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', prepareTaggedStatements);
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  async function listen(channel: string, onNotify: (payload: string) => void, onConnected?: () => void) {
    let client: pg.Client | undefined;
    let stopped = false;
    let established = false;
    let retry: NodeJS.Timeout | undefined;
    const connect = async (): Promise<void> => {
      const next = new pg.Client({ connectionString, application_name: 'reshelf-api-listen' });
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      next.on('error', () => {
        if (stopped || client !== next) return;
        client = undefined;
        next.end().catch(() => {});
        onConnected?.(); // Assume anything may have changed while we were deaf.
        retry = setTimeout(() => void connect().catch(() => {}), 1_000);
      });
      try {
        await next.connect();
        await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      } catch (error) {
        await next.end().catch(() => {});
        if (stopped) return;
        // The first connection's failure is the caller's (it gets no handle to stop a retry);
        // after that, keep trying.
        if (!established) throw error;
        retry = setTimeout(() => void connect().catch(() => {}), 1_000);
        throw error;
      }
      if (stopped) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      established = true;
      onConnected?.();
    };
    await connect();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    };
  }

  return {
    db,
    pool,
    listen,
    async ping(timeoutMs = 2_000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        });
        await Promise.race([pool.query('select 1'), timeout]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await db.destroy();
    },
  };
}
