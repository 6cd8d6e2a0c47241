/**
 * `pnpm ops bootstrap --email E` (in the Docker image: `node api/dist/ops.js bootstrap --email E`):
 * the first admin of a new site, for someone with the database and nobody to ask for a token.
 * It needs what the server needs (the same environment: DATABASE_URL, APP_SECRET, PUBLIC_ORIGIN
 * …; without DATABASE_URL, the embedded database of DATA_DIR: the running one if `pnpm start` is
 * up, else started for the while), applies the migrations as a start would (embedded backend),
 * then makes the account an admin with the super_admin tier and gives a link to set its
 * password: emailed when mail leaves the building, otherwise (or with --print-link) printed
 * here. Refused while an active admin exists.
 *
 * Exit codes: 0 done, 2 bad usage or configuration, 3 the database could not be reached,
 * 5 refused (an admin exists already), 1 anything else.
 */
import { hostname, userInfo } from 'node:os';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config.ts';
import { runningEmbeddedUrl } from './db/embedded.ts';
import { MigrationError } from './db/migrate.ts';
import { AppError } from './errors.ts';
import type { Mailer } from './platform/mail/mailer.ts';
import { renderEmail } from './platform/mail/render.ts';
import { EMBEDDED_DATABASE_NAME, type RunningDatabase, startDatabase } from './runtime.ts';
import { loadSecrets } from './secrets.ts';
import { createServices } from './services.ts';
import { bootstrapFirstAdmin } from './staff/index.ts';

export interface BootstrapIo {
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
}

export interface BootstrapOptions {
  email?: string;
  name?: string;
  role?: string;
  tier?: string;
  'print-link'?: boolean;
}

/** How long the link lasts: the identity provider's reset links (the local one: an hour). */
const LINK_LIFETIME = 'an hour';

/** Whether mail leaves the building (`dev` is the dev mailbox, read at /dev/mailbox). */
function mailDelivers(mailer: Mailer): boolean {
  return mailer.transport !== 'dev';
}

const emailSchema = z.string().trim().max(254).pipe(z.email());

export async function runBootstrap(options: BootstrapOptions, io: BootstrapIo): Promise<number> {
  const usage = (message: string) => {
    io.err(
      `${message}\n\nUsage: pnpm ops bootstrap --email you@example.com [--name "Your Name"] [--role admin] [--tier super_admin] [--print-link]\n`,
    );
    return 2;
  };
  const parsedEmail = emailSchema.safeParse(options.email ?? '');
  if (!options.email) return usage('--email is required: the first admin’s email address');
  if (!parsedEmail.success) return usage(`--email must be an email address (got "${options.email}")`);
  // The first admin must be able to make the others: nothing less than both.
  if ((options.role ?? 'admin') !== 'admin') {
    return usage(`--role must be admin for the first admin (got "${options.role}")`);
  }
  if ((options.tier ?? 'super_admin') !== 'super_admin') {
    return usage(
      `--tier must be super_admin for the first admin, who grants every other tier (got "${options.tier}")`,
    );
  }
  const email = parsedEmail.data.toLowerCase();
  const displayName = options.name?.trim() || email.split('@')[0] || 'Admin';

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(
        `${error.message}\nbootstrap needs the server's own settings: run it with the same environment.\n`,
      );
      return 2;
    }
    throw error;
  }

  const log = { info: (line: string) => io.err(`[reshelf] ${line}\n`), debug: () => {} };
  let database: RunningDatabase | undefined;
  try {
    if (!config.databaseUrl) {
      // A `pnpm start` that is up holds the embedded database: use it rather than start another.
      const running = await runningEmbeddedUrl(config.dataDir, EMBEDDED_DATABASE_NAME);
      if (running) {
        log.info(`using the embedded PostgreSQL running on ${config.dataDir}`);
        config = { ...config, databaseUrl: running };
      }
    }
    const secrets = await loadSecrets(config);
    database = await startDatabase(config, log);
    const services = await createServices(config, database.handle, secrets);
    const db = database.handle.db;
    const account = await bootstrapFirstAdmin(db, services.identity, {
      email,
      displayName,
      operator: `${userInfo().username}@${hostname()} (pnpm ops bootstrap)`,
    });
    const origin = config.siteOrigin;
    const link = await services.identity.passwordLink(email, {
      confirmUrl: `${origin}/auth/confirm`,
      resetUrl: `${origin}/reset-password`,
    });
    io.out(
      `${account.email} is now an admin with the super_admin tier${account.created ? ' (a new account)' : ''}.\n`,
    );
    if (mailDelivers(services.mailer) && !options['print-link']) {
      const message = await renderEmail(db, 'reset-password', { url: link });
      await services.mailer.send({
        to: email,
        template: 'reset-password',
        userId: account.userId,
        ...message,
      });
      // Sent now through the outbox, rather than when a server next looks.
      await services.mailer.deliver();
      io.out(`A link to set the password was emailed to ${email}; it lasts ${LINK_LIFETIME}.\n`);
    } else {
      io.out(
        `Open this link within ${LINK_LIFETIME} to set the password, then sign in (it works once; it was not emailed):\n\n  ${link}\n\n`,
      );
    }
    io.out(`Later, a new link: "Forgot your password?" on the sign-in page.\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.code === 'CONFLICT') {
      io.err(`Refused: ${error.message}\n`);
      return 5;
    }
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n`);
      return 2;
    }
    if (error instanceof MigrationError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    const code = (error as { code?: string }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === '28P01') {
      io.err(`Could not reach the database (${code}): check DATABASE_URL. ${(error as Error).message}\n`);
      return 3;
    }
    throw error;
  } finally {
    await database?.stop();
  }
}
