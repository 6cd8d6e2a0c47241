/**
 * Configuration from the environment, parsed once at start. A missing or malformed
 * variable stops the process with a message naming it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be a postgres:// or postgresql:// connection string with a host');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** The sender's address in MAIL_FROM: `no-reply@reshelf.example` or `Reshelf <no-reply@reshelf.example>`. */
export function parseMailFrom(value: string): { name: string | null; address: string } | null {
  const match = /^\s*(?:"?([^"<>]*?)"?\s*<([^<>\s]+)>|([^<>\s]+))\s*$/.exec(value);
  if (!match) return null;
  const address = (match[2] ?? match[3])!;
  if (!z.email().safeParse(address).success) return null;
  const name = match[1]?.trim();
  return { name: name ? name : null, address };
}

/** The development sender: nothing leaves the machine, so any address of a reserved domain does. */
export const DEV_MAIL_FROM = 'Reshelf <no-reply@reshelf.test>';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    BACKEND: z.enum(['embedded', 'supabase']).default('embedded'),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    PORT: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('3000')
        .refine((value) => /^\d+$/.test(value), 'must be a whole number')
        .transform(Number)
        .refine((value) => value >= 0 && value <= 65535, 'must be between 0 and 65535'),
    ),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('.data')),
    DATABASE_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
    DATABASE_POOL_MAX: z.preprocess(
      emptyAsUndefined,
      z.coerce.number().int('must be a whole number').min(1).max(200).default(10),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PUBLIC_ORIGIN: z.preprocess(
      emptyAsUndefined,
      z
        .url('must be a URL such as https://reshelf.example')
        .refine(
          (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
          'must be an http:// or https:// origin such as https://reshelf.example',
        )
        .optional(),
    ),
    WEB_DIST: z.preprocess(emptyAsUndefined, z.string().optional()),
    APP_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    SUPABASE_URL: z.preprocess(
      emptyAsUndefined,
      z.url('must be your project URL, e.g. https://abc.supabase.co').optional(),
    ),
    SUPABASE_ANON_KEY: z.preprocess(
      emptyAsUndefined,
      z.string().min(20, 'must be the project anon key').optional(),
    ),
    SUPABASE_SERVICE_ROLE_KEY: z.preprocess(
      emptyAsUndefined,
      z.string().min(20, 'must be the project service-role key').optional(),
    ),
    PUBLIC_CACHE_SECONDS: z.preprocess(
      emptyAsUndefined,
      z.coerce.number().int('must be a whole number').min(0).max(3600).optional(),
    ),
    PAYMENTS: z.preprocess(emptyAsUndefined, z.enum(['test', 'stripe'], 'must be test or stripe').optional()),
    STRIPE_SECRET_KEY: z.preprocess(
      emptyAsUndefined,
      z.string().startsWith('sk_', 'must be a Stripe secret key (sk_…)').optional(),
    ),
    STRIPE_WEBHOOK_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().startsWith('whsec_', 'must be a Stripe webhook signing secret (whsec_…)').optional(),
    ),
    MAIL: z.preprocess(
      emptyAsUndefined,
      z.enum(['dev', 'smtp', 'resend'], 'must be dev, smtp or resend').optional(),
    ),
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .refine((value) => {
          try {
            const url = new URL(value);
            return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
          } catch {
            return false;
          }
        }, 'must be an smtp:// (STARTTLS) or smtps:// (TLS) URL with a host, e.g. smtp://user:password@smtp.example.com:587')
        .optional(),
    ),
    RESEND_API_KEY: z.preprocess(
      emptyAsUndefined,
      z.string().trim().startsWith('re_', 'must be a Resend API key (re_…)').optional(),
    ),
    MAIL_FROM: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .max(320)
        .refine(
          (value) => parseMailFrom(value) !== null,
          'must be an email address, or a name and an address: Reshelf <no-reply@reshelf.example>',
        )
        .optional(),
    ),
    SEED_DEMO: z.preprocess(emptyAsUndefined, z.enum(['true', 'false'], 'must be true or false').optional()),
    BOOK_LOOKUP: z.preprocess(
      emptyAsUndefined,
      z.enum(['offline', 'openlibrary'], 'must be offline or openlibrary').optional(),
    ),
    SUPABASE_STORAGE_BUCKET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a bucket name: lower-case letters, digits and hyphens')
        .default('listing-photos'),
    ),
  })
  .superRefine((env, ctx) => {
    // Links in emails and the payment provider's return addresses need the site's real origin.
    if (env.NODE_ENV === 'production' && !env.PUBLIC_ORIGIN) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_ORIGIN'],
        message:
          "is required in production: the site's public origin, which links in emails lead to (e.g. https://reshelf.example)",
      });
    }
    const payments = env.PAYMENTS ?? (env.NODE_ENV === 'production' ? 'stripe' : 'test');
    if (payments === 'test' && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENTS'],
        message: 'cannot be test in production: use stripe',
      });
    }
    if (payments === 'stripe') {
      for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when payments go through Stripe',
          });
      }
    }
    // Mail must leave the building in production: the dev mailbox keeps it in the database.
    const mail = env.MAIL ?? (env.NODE_ENV === 'production' ? undefined : 'dev');
    if (!mail) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL'],
        message: 'is required in production: smtp (with SMTP_URL) or resend (with RESEND_API_KEY)',
      });
    } else if (mail === 'dev' && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL'],
        message: 'cannot be dev in production, where nobody reads the dev mailbox: use smtp or resend',
      });
    }
    if (mail === 'smtp' && !env.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required when MAIL=smtp, e.g. smtp://user:password@smtp.example.com:587',
      });
    }
    if (mail === 'resend' && !env.RESEND_API_KEY) {
      ctx.addIssue({ code: 'custom', path: ['RESEND_API_KEY'], message: 'is required when MAIL=resend' });
    }
    if ((mail === 'smtp' || mail === 'resend') && !env.MAIL_FROM) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_FROM'],
        message: `is required when MAIL=${mail}: the sender, e.g. Reshelf <no-reply@reshelf.example>`,
      });
    }
    if (env.BACKEND !== 'supabase') return;
    for (const name of [
      'DATABASE_URL',
      'SUPABASE_URL',
      'SUPABASE_ANON_KEY',
      'SUPABASE_SERVICE_ROLE_KEY',
      'APP_SECRET',
    ] as const) {
      if (!env[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'is required when BACKEND=supabase' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  backend: Env['BACKEND'];
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  logLevel: Env['LOG_LEVEL'];
  /** PUBLIC_ORIGIN as configured: CORS and the CSRF check admit it. */
  publicOrigin: string | undefined;
  /**
   * The one origin every link in an email, and the payment provider's return addresses, lead
   * to: PUBLIC_ORIGIN, or (outside production, where it is optional) the address this server
   * listens on. Never taken from a request, whose Host a sender chooses and whose origin is
   * "localhost:80" for the test provider's webhook delivered inside the process.
   */
  siteOrigin: string;
  /** Built web client to serve, when present. */
  webDist: string;
  /** Master secret; when absent outside production, one is kept in DATA_DIR/app.secret. */
  appSecret: string | undefined;
  /** Hosted backend (BACKEND=supabase) credentials; held only by the BFF. */
  supabase: { url: string; anonKey: string; serviceRoleKey: string } | undefined;
  /** Who takes payments: the local test provider (not in production) or Stripe Checkout. */
  payments: { provider: 'test' } | { provider: 'stripe'; secretKey: string; webhookSecret: string };
  /** Lifetime of cached public catalogue answers; 0 turns the cache off (the default in tests). */
  publicCacheSeconds: number;
  /**
   * Where email goes (decision 0028): the dev mailbox (the outbox, read at /dev/mailbox; never
   * in production), an SMTP server, or Resend's API. `from` is MAIL_FROM.
   */
  mail:
    | { transport: 'dev'; from: string }
    | { transport: 'smtp'; from: string; smtpUrl: string }
    | { transport: 'resend'; from: string; resendApiKey: string };
  /** Seed demo data on the first start (embedded backend, never in production). */
  seedDemo: boolean;
  /**
   * Where book details come from for an ISBN our catalogue lacks: Open Library (hosted mode,
   * where the BFF is online) or nowhere (the seller types them in). Never the network in tests.
   */
  bookLookup: 'offline' | 'openlibrary';
  /** The public Supabase Storage bucket for photos (hosted mode). */
  storageBucket: string;
}

/** The name a browser on this machine reaches the server by, for a HOST it listens on. */
function listenHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function mailConfig(env: Env): AppConfig['mail'] {
  const from = env.MAIL_FROM ?? DEV_MAIL_FROM;
  switch (env.MAIL ?? 'dev') {
    case 'smtp':
      return { transport: 'smtp', from, smtpUrl: env.SMTP_URL ?? '' };
    case 'resend':
      return { transport: 'resend', from, resendApiKey: env.RESEND_API_KEY ?? '' };
    default:
      return { transport: 'dev', from };
  }
}

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables whose values are credentials (SMTP_URL may carry a password). */
const SECRET_VARIABLES = new Set(['SMTP_URL', 'RESEND_API_KEY']);

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.') || 'environment';
        const value = source[name];
        // A secret is never repeated into logs: the message names the variable only.
        const shown =
          value === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
        return `${name} ${issue.message}${shown}`;
      }),
    );
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    backend: env.BACKEND,
    host: env.HOST,
    port: env.PORT,
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    logLevel: env.LOG_LEVEL,
    publicOrigin: env.PUBLIC_ORIGIN,
    siteOrigin: env.PUBLIC_ORIGIN
      ? new URL(env.PUBLIC_ORIGIN).origin
      : `http://${listenHost(env.HOST)}:${env.PORT}`,
    webDist: path.resolve(REPO_ROOT, env.WEB_DIST ?? 'web/dist'),
    appSecret: env.APP_SECRET,
    payments:
      (env.PAYMENTS ?? (env.NODE_ENV === 'production' ? 'stripe' : 'test')) === 'stripe'
        ? {
            provider: 'stripe',
            secretKey: env.STRIPE_SECRET_KEY ?? '',
            webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
          }
        : { provider: 'test' },
    publicCacheSeconds: env.PUBLIC_CACHE_SECONDS ?? (env.NODE_ENV === 'test' ? 0 : 60),
    supabase:
      env.SUPABASE_URL && env.SUPABASE_ANON_KEY && env.SUPABASE_SERVICE_ROLE_KEY
        ? {
            url: env.SUPABASE_URL,
            anonKey: env.SUPABASE_ANON_KEY,
            serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY,
          }
        : undefined,
    mail: mailConfig(env),
    seedDemo:
      env.BACKEND === 'embedded' && env.NODE_ENV !== 'production' && (env.SEED_DEMO ?? 'true') === 'true',
    bookLookup:
      env.NODE_ENV === 'test'
        ? 'offline'
        : (env.BOOK_LOOKUP ?? (env.BACKEND === 'supabase' ? 'openlibrary' : 'offline')),
    storageBucket: env.SUPABASE_STORAGE_BUCKET,
  };
}
