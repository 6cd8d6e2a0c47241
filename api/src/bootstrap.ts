/**
 * Everything the app needs before it can serve: the secret, the database (started and
 * migrated), the backend adapters, and the first-start demo seed.
 */
import type { AppConfig } from './config.ts';
import { type RunningDatabase, type RuntimeLogger, startDatabase } from './runtime.ts';
import { loadSecrets, type Secrets } from './secrets.ts';
import { runDemoSeed } from './seed/demo.ts';
import { createServices, type Services } from './services.ts';

export interface Prepared {
  database: RunningDatabase;
  secrets: Secrets;
  services: Services;
}

export async function prepare(config: AppConfig, log: RuntimeLogger): Promise<Prepared> {
  const secrets = await loadSecrets(config);
  const database = await startDatabase(config, log);
  try {
    const services = await createServices(config, database.handle, secrets);
    if (config.seedDemo) {
      const report = await runDemoSeed(database.handle.db, services, { origin: config.siteOrigin });
      if (report.ran.length) log.info(`demo data seeded: ${report.ran.join(', ')}`);
      if (report.covers.error) log.info(`demo covers could not be drawn: ${report.covers.error}`);
      if (report.covers.listings) {
        log.info(
          `demo covers: ${report.covers.covers} drawn for ${report.covers.listings} listings in ${report.covers.ms} ms`,
        );
      }
    }
    return { database, secrets, services };
  } catch (error) {
    await database.stop();
    throw error;
  }
}
