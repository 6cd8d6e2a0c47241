import { createHash } from 'node:crypto';
import { Kysely, type LogConfig, PostgresDialect } from 'kysely';
import pg from 'pg';
import { infrastructureFailure, PoolSaturatedError } from '../errors.ts';
import { backoffDelay, RECONNECT_BACKOFF } from './backoff.ts';
import type { DB } from './database.generated.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /**
   * True when the database answers within the timeout. Asked over a connection of its own, so
   * that /readyz says whether PostgreSQL answers, not how long this instance's queue is.
   */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Connections in use and requests waiting for one (the load shedder and the fault suite). */
  poolStats(): { total: number; idle: number; waiting: number; maxWaiting: number };
  /** Whether another request for a connection would be refused rather than queued. */
  saturated(): boolean;
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
  /**
   * A session-level advisory lock, taken with pg_try_advisory_lock on a connection of its own
   * to the session URL, held until the returned function runs; null when another session
   * holds it. (Through a transaction pooler a pooled connection is no session: the unlock
   * could reach another server connection and the lock would leak.)
   */
  tryAdvisoryLock(key: string): Promise<(() => Promise<void>) | null>;
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

/**
 * A pool that refuses to queue beyond a bound: with every connection in use and `maxWaiting`
 * requests already waiting, a further checkout fails at once with PoolSaturatedError (answered
 * 503 with Retry-After) instead of joining a queue whose wait would outlast any useful answer.
 */
class BoundedPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    readonly maxWaiting: number,
  ) {
    super(config);
  }

  /** Every connection busy and the queue at its bound. */
  saturated(): boolean {
    return (
      this.idleCount === 0 &&
      this.totalCount >= (this.options.max ?? 10) &&
      this.waitingCount >= this.maxWaiting
    );
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg.Pool's connect has a callback and a promise form.
  override connect(callback?: any): any {
    if (this.saturated()) {
      const error = new PoolSaturatedError(this.waitingCount);
      if (callback) {
        process.nextTick(() => callback(error, undefined, () => {}));
        return undefined;
      }
      return Promise.reject(error);
    }
    return callback ? super.connect(callback) : super.connect();
  }
}

/**
 * Every client the pool makes keeps an 'error' listener for life. pg emits 'error' on a client
 * whose connection dies; the pool listens only while the client is idle, so a client checked out
 * at that moment (a request, a transaction, the job runner's pinned connection) would otherwise
 * raise an unhandled 'error' event and end the process. The query in progress fails on its own
 * (answered 503); the broken client is discarded when it is released.
 */
function keepErrorsHandled(client: pg.PoolClient, onError: (error: Error) => void): void {
  client.on('error', onError);
}

/**
 * Wraps a pooled client's query: statements tagged PREPARED_TAG run as named prepared
 * statements, and a statement that fails because the connection died ends the client, so that
 * the pool discards it on release instead of handing the dead connection to the next request
 * (the server's FATAL message can arrive, and the query fail, before the socket closes).
 */
function wrapQuery(client: pg.PoolClient): void {
  const original = client.query.bind(client) as QueryFn;
  const discardIfDead = (error: unknown) => {
    if (infrastructureFailure(error) === 'database') client.end().catch(() => {});
  };
  const query: QueryFn = (text, values, ...rest) => {
    const result =
      typeof text === 'string' && text.startsWith(PREPARED_TAG) && rest.length === 0
        ? original({ name: `rs_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values })
        : original(text, values, ...rest);
    if (result instanceof Promise) result.catch(discardIfDead);
    return result;
  };
  (client as unknown as { query: QueryFn }).query = query;
}

export function createDatabase(
  connectionString: string,
  options: {
    max?: number;
    /** Requests that may wait for a connection before more are refused (default: no bound;
     * the server passes DATABASE_POOL_MAX_WAITING). */
    maxWaiting?: number;
    /** Kysely's query log (the benchmark records each statement). */
    log?: LogConfig;
    /** Told about connections lost (idle or in use) and LISTEN reconnections. */
    onConnectionError?: (error: Error, where: 'pool' | 'listen') => void;
    /**
     * Where session semantics are needed — LISTEN and session-level advisory locks — when the
     * pool's connection string is a transaction pooler (DATABASE_DIRECT_URL: Supabase's direct
     * connection, or its pooler in session mode). The pool's own string otherwise.
     */
    sessionConnectionString?: string;
  } = {},
): DatabaseHandle {
  const sessionConnectionString = options.sessionConnectionString ?? connectionString;
  const max = options.max ?? 10;
  const connectionOptions = `-c pg_trgm.similarity_threshold=${TRIGRAM_THRESHOLDS.similarity} -c pg_trgm.word_similarity_threshold=${TRIGRAM_THRESHOLDS.wordSimilarity}`;
  const pool = new BoundedPool(
    {
      connectionString,
      max,
      application_name: 'reshelf-api',
      options: connectionOptions,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    },
    options.maxWaiting ?? Number.POSITIVE_INFINITY,
  );
  // Once the pool is closing, its connections ending (or the server stopping under the last of
  // them: pg's end() resolves before their sockets have closed) is what was asked for, not news.
  let closing = false;
  const lost = (error: Error) => {
    if (!closing) options.onConnectionError?.(error, 'pool');
  };
  // An idle client losing its connection must not crash the process; the pool replaces it.
  // (Reported by the client's own listener below, which hears it too.)
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    keepErrorsHandled(client, lost);
    wrapQuery(client);
  });
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  async function listen(channel: string, onNotify: (payload: string) => void, onConnected?: () => void) {
    let client: pg.Client | undefined;
    let stopped = false;
    let established = false;
    let retry: NodeJS.Timeout | undefined;
    // Consecutive failed attempts: the next one waits longer (capped, jittered).
    let failures = 0;
    const reconnect = () => {
      if (stopped) return;
      clearTimeout(retry);
      retry = setTimeout(() => void connect().catch(() => {}), backoffDelay(failures, RECONNECT_BACKOFF));
      retry.unref();
      failures += 1;
    };
    const connect = async (): Promise<void> => {
      const next = new pg.Client({
        connectionString: sessionConnectionString,
        application_name: 'reshelf-api-listen',
        connectionTimeoutMillis: 5_000,
      });
      next.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      // Listened to for the client's whole life: an error while connecting is handled below.
      next.on('error', (error) => {
        if (stopped || client !== next) return;
        options.onConnectionError?.(error, 'listen');
        client = undefined;
        next.end().catch(() => {});
        onConnected?.(); // Assume anything may have changed while we were deaf.
        reconnect();
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
        reconnect();
        throw error;
      }
      if (stopped) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      established = true;
      failures = 0;
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

  // Session-level advisory locks (the job runner's), each on a session connection of its own
  // for as long as it is held. Few at a time: the job runner runs one job after another.
  let lockPool: pg.Pool | undefined;
  async function tryAdvisoryLock(key: string): Promise<(() => Promise<void>) | null> {
    lockPool ??= (() => {
      const created = new pg.Pool({
        connectionString: sessionConnectionString,
        max: 2,
        application_name: 'reshelf-api-locks',
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
      });
      created.on('error', () => {});
      created.on('connect', (client) => keepErrorsHandled(client, lost));
      return created;
    })();
    const client = await lockPool.connect();
    let locked = false;
    try {
      const result = await client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock(hashtext($1)) as locked',
        [key],
      );
      locked = Boolean(result.rows[0]?.locked);
    } catch (error) {
      client.release(infrastructureFailure(error) ? (error as Error) : undefined);
      throw error;
    }
    if (!locked) {
      client.release();
      return null;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await client.query('select pg_advisory_unlock(hashtext($1))', [key]);
        client.release();
      } catch (error) {
        // The session is gone (and its lock with it): discard the connection.
        client.release(error as Error);
      }
    };
  }

  // /readyz's own connection, kept open between probes and replaced when it fails.
  let health: Promise<pg.Client> | undefined;
  let probing: Promise<boolean> | undefined;
  const healthClient = () => {
    health ??= (async () => {
      const client = new pg.Client({
        connectionString,
        application_name: 'reshelf-api-health',
        connectionTimeoutMillis: 2_000,
      });
      client.on('error', () => {
        health = undefined;
        client.end().catch(() => {});
      });
      try {
        await client.connect();
      } catch (error) {
        health = undefined;
        await client.end().catch(() => {});
        throw error;
      }
      return client;
    })();
    return health;
  };
  const probe = async (timeoutMs: number): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    let client: pg.Client | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      await Promise.race([
        healthClient().then((connected) => {
          client = connected;
          return connected.query('select 1');
        }),
        timeout,
      ]);
      return true;
    } catch {
      // A probe that timed out may have left a stuck connection: start afresh next time.
      if (client) {
        health = undefined;
        client.end().catch(() => {});
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    db,
    pool,
    listen,
    tryAdvisoryLock,
    ping(timeoutMs = 2_000) {
      // Concurrent probes share one query.
      probing ??= probe(timeoutMs).finally(() => {
        probing = undefined;
      });
      return probing;
    },
    poolStats() {
      return {
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        maxWaiting: pool.maxWaiting,
      };
    },
    saturated() {
      return pool.saturated();
    },
    async close() {
      closing = true;
      const client = health;
      health = undefined;
      await client?.then((connected) => connected.end()).catch(() => {});
      await lockPool?.end().catch(() => {});
      lockPool = undefined;
      await db.destroy();
    },
  };
}
