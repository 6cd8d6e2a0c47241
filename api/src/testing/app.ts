/** The real Fastify app on a per-file test database, with its log lines captured. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { type AppConfig, loadConfig } from '../config.ts';
import { createSecrets, type Secrets } from '../secrets.ts';
import { seedReferenceData } from '../seed/demo.ts';
import { createServices, type Services } from '../services.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  config: AppConfig;
  services: Services;
  secrets: Secrets;
  /** Every log line the app wrote, as raw JSON text. */
  logs: string[];
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    /** Extra environment; a function when it depends on the database (a hosted stand-in on it). */
    env?: NodeJS.ProcessEnv | ((database: TestDatabase) => NodeJS.ProcessEnv | Promise<NodeJS.ProcessEnv>);
    referenceData?: boolean;
    /** Replace some adapters (e.g. hosted Edge Functions); the rest come from the config. */
    services?: (defaults: Services, database: TestDatabase) => Services | Promise<Services>;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  if (options.referenceData ?? true) await seedReferenceData(database.handle.db);
  // Stored files (photos) go to a directory of the test's own, removed afterwards.
  const dataDir = await mkdtemp(path.join(tmpdir(), 'reshelf-test-'));
  const env = typeof options.env === 'function' ? await options.env(database) : options.env;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.appUrl,
    WEB_DIST: 'api/.no-web-dist',
    DATA_DIR: dataDir,
    ...env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const secrets = createSecrets('test-secret-that-is-long-enough-for-hkdf-0123456789');
  // The app connects as the BFF's runtime role, as in production: the privilege wall is
  // exercised by every test that drives the app.
  const defaults = await createServices(config, database.appHandle, secrets);
  const services = options.services ? await options.services(defaults, database) : defaults;
  const app = await buildApp({ config, database: database.appHandle, secrets, services, logStream });
  await app.ready();
  return {
    app,
    database,
    config,
    services,
    secrets,
    logs,
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
