import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './database.generated.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /** True when the database answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
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

export function createDatabase(connectionString: string, options: { max?: number } = {}): DatabaseHandle {
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
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
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
