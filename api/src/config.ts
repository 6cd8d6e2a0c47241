/**
 * Configuration from the environment, parsed once at start. A missing or malformed
 * variable stops the process with a message naming it.
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './paths.ts';

export { REPO_ROOT };

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

/** proxy-addr's names for whole ranges (Fastify's trustProxy understands them). */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** One entry of a TRUST_PROXY list: an address, a CIDR range, or a range's name. */
function isProxyAddress(entry: string): boolean {
  if ((PROXY_RANGE_NAMES as readonly string[]).includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which X-Forwarded-For hops to believe. Off by default (the client's own
 * address); a hop count (the proxies in front of the site, e.g. 1 behind one load balancer);
 * or the proxies' addresses / CIDR ranges. Never "every proxy": then anyone could pick the
 * address our per-IP limits see.
 */
export type TrustProxy = false | number | string[];

const trustProxySchema = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx): TrustProxy => {
      if (value === undefined || /^(false|off|none|0)$/i.test(value)) return false;
      if (/^(true|on|all|\*)$/i.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'cannot trust every proxy: any client could then choose the address the per-IP limits see. Give the number of proxies in front of the site (e.g. 1) or their addresses',
        });
        return z.NEVER;
      }
      if (/^\d+$/.test(value)) {
        const hops = Number(value);
        if (hops > 10) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be a hop count from 1 to 10 (the proxies in front of the site)',
          });
          return z.NEVER;
        }
        return hops;
      }
      const entries = value.split(',').map((entry) => entry.trim());
      const bad = entries.filter((entry) => !isProxyAddress(entry));
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `must be off, a hop count such as 1, or a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.0/8,::1 (not an address: ${bad.map((entry) => JSON.stringify(entry)).join(', ')})`,
        });
        return z.NEVER;
      }
      return entries;
    }),
);

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
    /** Unset: 127.0.0.1 outside production (a development instance is this machine's alone:
     * its dev mailbox holds password-reset links), every interface in production. */
    HOST: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
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
    DATABASE_MIGRATION_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
    DATABASE_DIRECT_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
    DATABASE_POOL_MAX: z.preprocess(
      emptyAsUndefined,
      z.coerce.number().int('must be a whole number').min(1).max(200).default(10),
    ),
    TRUST_PROXY: trustProxySchema,
    DATABASE_POOL_MAX_WAITING: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number('must be a whole number')
        .int('must be a whole number')
        .min(0, 'must be 0 or more')
        .max(10_000, 'must be at most 10000')
        .optional(),
    ),
    MAX_EVENT_LOOP_DELAY_MS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number('must be a whole number of milliseconds')
        .int('must be a whole number of milliseconds')
        .min(0, 'must be 0 (off) or more')
        .max(60_000, 'must be at most 60000')
        .optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_FORMAT: z.preprocess(emptyAsUndefined, z.enum(['json', 'human'], 'must be json or human').optional()),
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
    /** The web's server bundle (public pages rendered on the server); default: WEB_DIST + "-ssr". */
    WEB_SSR: z.preprocess(emptyAsUndefined, z.string().optional()),
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
    TRPC_PATH: z.preprocess(
      emptyAsUndefined,
      z.enum(['lean', 'stock'], 'must be lean or stock').default('lean'),
    ),
    PUBLIC_CACHE_SECONDS: z.preprocess(
      emptyAsUndefined,
      z.coerce.number().int('must be a whole number').min(0).max(3600).optional(),
    ),
    REQUEST_LOG_SAMPLE: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number()
        .int('must be a whole number: keep one in this many fast successful requests (1: all)')
        .min(1, 'must be 1 or more: keep one in this many fast successful requests (1: all)')
        .max(1000)
        .default(1),
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
    // The Connect endpoint's own signing secret (events from connected accounts: account.updated,
    // payout.*), when Stripe posts them to a separate endpoint at the same address.
    STRIPE_CONNECT_WEBHOOK_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().startsWith('whsec_', 'must be a Stripe webhook signing secret (whsec_…)').optional(),
    ),
    // Who buys parcel labels (decision 0083, 0084): the embedded test carrier or EasyPost.
    CARRIERS: z.preprocess(
      emptyAsUndefined,
      z.enum(['test', 'easypost'], 'must be test or easypost').optional(),
    ),
    EASYPOST_API_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .regex(/^EZ[AT]K[A-Za-z0-9]+$/, 'must be an EasyPost API key (EZAK… production, EZTK… test)')
        .optional(),
    ),
    EASYPOST_WEBHOOK_SECRET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .min(16, "must be the webhook's secret as set on EasyPost (16 characters or more)")
        .optional(),
    ),
    EASYPOST_BASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http or https URL, e.g. https://api.easypost.com' })
        .default('https://api.easypost.com'),
    ),
    // The test carrier refuses every label (a carrier outage, for browser tests and demos).
    TEST_CARRIER_FAIL_LABELS: z.preprocess(
      emptyAsUndefined,
      z.enum(['0', '1'], 'must be 1 (labels fail) or 0').default('0'),
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
    SUPABASE_STORAGE_PRIVATE_BUCKET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'must be a bucket name: lower-case letters, digits and hyphens')
        .default('conversation-photos'),
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
    const carriers = env.CARRIERS ?? (env.NODE_ENV === 'production' ? 'easypost' : 'test');
    if (carriers === 'test' && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['CARRIERS'],
        message: 'cannot be test in production: use easypost',
      });
    }
    if (carriers === 'easypost') {
      for (const name of ['EASYPOST_API_KEY', 'EASYPOST_WEBHOOK_SECRET'] as const) {
        if (!env[name])
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: 'is required when parcel labels are bought through EasyPost',
          });
      }
    }
    if (env.DATABASE_MIGRATION_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_MIGRATION_URL'],
        message:
          "needs DATABASE_URL too: DATABASE_MIGRATION_URL is the owner's connection for migrations, DATABASE_URL the runtime role's",
      });
    }
    if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_DIRECT_URL'],
        message:
          "needs DATABASE_URL too: DATABASE_DIRECT_URL is the session connection for LISTEN and locks, DATABASE_URL the pool's",
      });
    }
    if (env.DATABASE_MIGRATION_URL && env.BACKEND === 'supabase') {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_MIGRATION_URL'],
        message: 'is not used with BACKEND=supabase: apply the migrations with `supabase db push`',
      });
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
    if (env.NODE_ENV === 'production' && env.BACKEND !== 'supabase') {
      // Without DATABASE_URL the embedded PostgreSQL would start, which production images do not
      // carry; without APP_SECRET sessions would be signed by a key generated on this machine.
      if (!env.DATABASE_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['DATABASE_URL'],
          message:
            'is required in production: the PostgreSQL to use, e.g. postgres://reshelf:password@db:5432/reshelf (the embedded database is for development)',
        });
      }
      if (!env.APP_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: ['APP_SECRET'],
          message:
            'is required in production: at least 32 random characters (e.g. openssl rand -base64 48), which sign sessions and emailed links',
        });
      }
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
  /** The runtime connection (the pool's); none: the embedded PostgreSQL. */
  databaseUrl: string | undefined;
  /** The schema owner's connection for migrations, when not the runtime one (decision 0026). */
  databaseMigrationUrl: string | undefined;
  /**
   * A direct (session) connection as the runtime role, for what needs a session: LISTEN and the
   * job runner's advisory locks. For when DATABASE_URL goes through a transaction pooler
   * (Supabase's port 6543); none: DATABASE_URL serves both (decision 0032).
   */
  databaseDirectUrl: string | undefined;
  databasePoolMax: number;
  /**
   * Requests that may wait for a database connection when every one is in use; the next is
   * refused at once with 503 and Retry-After instead of queueing (decision 0024).
   */
  databasePoolMaxWaiting: number;
  /** Shed requests (503, Retry-After) while the event loop lags more than this; 0: never. */
  maxEventLoopDelayMs: number;
  logLevel: Env['LOG_LEVEL'];
  /** JSON lines (production: for log collectors), or short lines for a person (otherwise). */
  logFormat: 'json' | 'human';
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
  /** The web's server bundle's entry (public pages rendered on the server), when present. */
  webSsrEntry: string;
  /** Master secret; when absent outside production, one is kept in DATA_DIR/app.secret. */
  appSecret: string | undefined;
  /** Hosted backend (BACKEND=supabase) credentials; held only by the BFF. */
  supabase: { url: string; anonKey: string; serviceRoleKey: string } | undefined;
  /** Who takes payments: the local test provider (not in production) or Stripe Checkout. */
  payments:
    | { provider: 'test' }
    | { provider: 'stripe'; secretKey: string; webhookSecret: string; connectWebhookSecret?: string };
  /**
   * Who buys parcel labels and reports scans (decision 0084): the embedded test carrier (not in
   * production; `failLabels` makes every purchase fail as an outage would) or EasyPost.
   */
  carriers:
    | { provider: 'test'; failLabels: boolean }
    | { provider: 'easypost'; apiKey: string; webhookSecret: string; baseUrl: string };
  /** Lifetime of cached public catalogue answers; 0 turns the cache off (the default in tests). */
  publicCacheSeconds: number;
  /**
   * What serves /trpc (decision 0040): the lean route (http/trpc-lean.ts, the default) or
   * tRPC's stock Fastify plugin (TRPC_PATH=stock), kept for comparison and as a way back.
   */
  trpcPath: 'lean' | 'stock';
  /**
   * The request log (/admin/logs) keeps one in this many fast successful API requests; every
   * error and every slow one always (platform/request-log). 1: every request.
   */
  requestLogSample: number;
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
  /** The private bucket for a conversation's photos (hosted mode; decision 0060). */
  storagePrivateBucket: string;
  /**
   * Which proxies' X-Forwarded-For to believe (Fastify's trustProxy): none (false), a hop
   * count, or their addresses. request.ip, and so every per-IP limit, follows it.
   */
  trustProxy: TrustProxy;
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

/**
 * Every problem of an environment, each variable named once. zod skips the rules about the
 * whole environment (what production requires) while a variable is malformed, so those are
 * asked again without the malformed ones: one message lists them all.
 */
function configIssues(source: NodeJS.ProcessEnv, issues: readonly z.core.$ZodIssue[]): string[] {
  const named = new Map<string, string>();
  const add = (list: readonly z.core.$ZodIssue[]) => {
    for (const issue of list) {
      const name = issue.path.join('.') || 'environment';
      if (named.has(name)) continue;
      const value = source[name];
      // A secret is never repeated into logs: the message names the variable only.
      const shown =
        value === undefined || SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(value)})`;
      named.set(name, `${name} ${issue.message}${shown}`);
    }
  };
  add(issues);
  const malformed = new Set(named.keys());
  const rest = Object.fromEntries(Object.entries(source).filter(([name]) => !malformed.has(name)));
  const again = envSchema.safeParse(rest);
  if (!again.success) add(again.error.issues);
  return [...named.values()];
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(configIssues(source, parsed.error.issues));
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    backend: env.BACKEND,
    host: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    port: env.PORT,
    dataDir: path.resolve(REPO_ROOT, env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databaseMigrationUrl: env.DATABASE_MIGRATION_URL,
    databaseDirectUrl: env.DATABASE_DIRECT_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    databasePoolMaxWaiting: env.DATABASE_POOL_MAX_WAITING ?? 2 * env.DATABASE_POOL_MAX,
    // Off in tests, where a busy test machine's lag would shed a test's own requests.
    maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS ?? (env.NODE_ENV === 'test' ? 0 : 200),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'human'),
    publicOrigin: env.PUBLIC_ORIGIN,
    siteOrigin: env.PUBLIC_ORIGIN
      ? new URL(env.PUBLIC_ORIGIN).origin
      : `http://${env.HOST ? listenHost(env.HOST) : 'localhost'}:${env.PORT}`,
    webDist: path.resolve(REPO_ROOT, env.WEB_DIST ?? 'web/dist'),
    webSsrEntry: path.join(
      env.WEB_SSR
        ? path.resolve(REPO_ROOT, env.WEB_SSR)
        : `${path.resolve(REPO_ROOT, env.WEB_DIST ?? 'web/dist')}-ssr`,
      'entry-server.js',
    ),
    appSecret: env.APP_SECRET,
    payments:
      (env.PAYMENTS ?? (env.NODE_ENV === 'production' ? 'stripe' : 'test')) === 'stripe'
        ? {
            provider: 'stripe',
            secretKey: env.STRIPE_SECRET_KEY ?? '',
            webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
            ...(env.STRIPE_CONNECT_WEBHOOK_SECRET
              ? { connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET }
              : {}),
          }
        : { provider: 'test' },
    carriers:
      (env.CARRIERS ?? (env.NODE_ENV === 'production' ? 'easypost' : 'test')) === 'easypost'
        ? {
            provider: 'easypost',
            apiKey: env.EASYPOST_API_KEY ?? '',
            webhookSecret: env.EASYPOST_WEBHOOK_SECRET ?? '',
            baseUrl: env.EASYPOST_BASE_URL.replace(/\/+$/, ''),
          }
        : { provider: 'test', failLabels: env.TEST_CARRIER_FAIL_LABELS === '1' },
    publicCacheSeconds: env.PUBLIC_CACHE_SECONDS ?? (env.NODE_ENV === 'test' ? 0 : 60),
    trpcPath: env.TRPC_PATH,
    requestLogSample: env.REQUEST_LOG_SAMPLE,
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
    storagePrivateBucket: env.SUPABASE_STORAGE_PRIVATE_BUCKET,
    trustProxy: env.TRUST_PROXY,
  };
}
