import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const SITE = 'https://reshelf.example';
const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
const MAIL = {
  MAIL: 'smtp',
  SMTP_URL: 'smtp://postman:s3cret-pass@smtp.reshelf.example:587',
  MAIL_FROM: 'Reshelf <no-reply@reshelf.example>',
};

const EASYPOST = { EASYPOST_API_KEY: 'EZAKlive0123456789', EASYPOST_WEBHOOK_SECRET: 'a-webhook-secret-0123' };

/** What production needs besides the origin and Stripe: its database, its secret and its carrier. */
const PRODUCTION_BASE = {
  NODE_ENV: 'production',
  ...EASYPOST,
  DATABASE_URL: 'postgres://reshelf:pw@db.example:5432/reshelf',
  APP_SECRET: 'a-production-secret-that-is-long-enough-0123',
};

/** The variable each line of a ConfigError names, in order. */
function namesIn(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((issue) => issue.split(' ')[0] ?? '');
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('defaults to the embedded backend on port 3000 with data in .data', () => {
    const config = loadConfig({});
    expect(config.backend).toBe('embedded');
    expect(config.port).toBe(3000);
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedDemo).toBe(true);
  });

  it.each([
    ['abc', /PORT must be a whole number \(got "abc"\)/],
    ['70000', /PORT must be between 0 and 65535/],
    ['30.5', /PORT must be a whole number/],
  ])('stops on PORT=%s with a message naming PORT', (value, message) => {
    expect(() => loadConfig({ PORT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: value })).toThrow(message);
  });

  it('bounds the pool queue at twice the pool unless told, and sheds on event-loop lag outside tests', () => {
    expect(loadConfig({})).toMatchObject({ databasePoolMaxWaiting: 20, maxEventLoopDelayMs: 200 });
    expect(loadConfig({ DATABASE_POOL_MAX: '4' }).databasePoolMaxWaiting).toBe(8);
    expect(loadConfig({ DATABASE_POOL_MAX_WAITING: '0' }).databasePoolMaxWaiting).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test' }).maxEventLoopDelayMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'test', MAX_EVENT_LOOP_DELAY_MS: '150' }).maxEventLoopDelayMs).toBe(150);
    expect(() => loadConfig({ DATABASE_POOL_MAX_WAITING: 'lots' })).toThrow(
      /DATABASE_POOL_MAX_WAITING must be a whole number/,
    );
    expect(() => loadConfig({ DATABASE_POOL_MAX_WAITING: '-1' })).toThrow(/DATABASE_POOL_MAX_WAITING/);
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '1.5' })).toThrow(
      /MAX_EVENT_LOOP_DELAY_MS must be a whole number of milliseconds/,
    );
  });

  it.each(['not a url', 'mysql://localhost/db', 'postgres://'])(
    'stops on DATABASE_URL=%s naming it',
    (value) => {
      expect(() => loadConfig({ DATABASE_URL: value })).toThrow(/DATABASE_URL must be a postgres:\/\//);
    },
  );

  it('keeps every request in the request log unless told to sample the fast successful ones', () => {
    expect(loadConfig({}).requestLogSample).toBe(1);
    expect(loadConfig({ REQUEST_LOG_SAMPLE: '10' }).requestLogSample).toBe(10);
    expect(() => loadConfig({ REQUEST_LOG_SAMPLE: '0' })).toThrow(/REQUEST_LOG_SAMPLE must be 1 or more/);
    expect(() => loadConfig({ REQUEST_LOG_SAMPLE: '0.5' })).toThrow(
      /REQUEST_LOG_SAMPLE must be a whole number/,
    );
  });

  it('accepts a real connection string and lists every bad variable at once', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://u:p@db.example:5432/reshelf' }).databaseUrl).toBe(
      'postgresql://u:p@db.example:5432/reshelf',
    );
    try {
      loadConfig({ PORT: 'x', BACKEND: 'cloud' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).issues.map((issue) => issue.split(' ')[0])).toEqual(['BACKEND', 'PORT']);
    }
  });

  it('takes a direct (session) connection for LISTEN and locks, only beside DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://reshelf_app.ref:a@aws-0-eu-west-2.pooler.supabase.com:6543/postgres',
      DATABASE_DIRECT_URL: 'postgres://reshelf_app.ref:a@aws-0-eu-west-2.pooler.supabase.com:5432/postgres',
    });
    expect(config.databaseDirectUrl).toBe(
      'postgres://reshelf_app.ref:a@aws-0-eu-west-2.pooler.supabase.com:5432/postgres',
    );
    expect(loadConfig({}).databaseDirectUrl).toBeUndefined();
    expect(() =>
      loadConfig({ DATABASE_DIRECT_URL: 'postgres://reshelf_app:a@db.ref.supabase.co:5432/postgres' }),
    ).toThrow(/DATABASE_DIRECT_URL needs DATABASE_URL too/);
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://a@db/r', DATABASE_DIRECT_URL: 'db.ref.supabase.co:5432' }),
    ).toThrow(/DATABASE_DIRECT_URL must be a postgres:\/\//);
  });

  it("takes the owner's connection for migrations apart from the runtime one, only beside DATABASE_URL", () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://reshelf_app:a@db:5432/reshelf',
      DATABASE_MIGRATION_URL: 'postgres://postgres:b@db:5432/reshelf',
    });
    expect(config.databaseUrl).toBe('postgres://reshelf_app:a@db:5432/reshelf');
    expect(config.databaseMigrationUrl).toBe('postgres://postgres:b@db:5432/reshelf');
    expect(loadConfig({}).databaseMigrationUrl).toBeUndefined();
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: 'postgres://postgres:b@db:5432/reshelf' })).toThrow(
      /DATABASE_MIGRATION_URL needs DATABASE_URL too/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: 'postgres://a@db/r', DATABASE_MIGRATION_URL: 'db:5432' }),
    ).toThrow(/DATABASE_MIGRATION_URL must be a postgres:\/\//);
    expect(() =>
      loadConfig({
        BACKEND: 'supabase',
        DATABASE_URL: 'postgres://reshelf_app:a@db:5432/postgres',
        DATABASE_MIGRATION_URL: 'postgres://postgres:b@db:5432/postgres',
      }),
    ).toThrow(
      /DATABASE_MIGRATION_URL is not used with BACKEND=supabase: apply the migrations with `supabase db push`/,
    );
  });

  it('refuses the hosted backend without its settings, listing every missing one', () => {
    expect(() => loadConfig({ BACKEND: 'supabase' })).toThrow(
      /DATABASE_URL is required when BACKEND=supabase\n.*SUPABASE_URL is required.*\n.*SUPABASE_ANON_KEY is required.*\n.*SUPABASE_SERVICE_ROLE_KEY is required.*\n.*APP_SECRET is required/,
    );
  });

  it('refuses to start hosted in production listing everything missing in one message', () => {
    let message = '';
    try {
      loadConfig({ BACKEND: 'supabase', NODE_ENV: 'production' });
    } catch (error) {
      message = (error as ConfigError).message;
    }
    expect(message.split('\n')[0]).toBe('Invalid configuration:');
    expect(
      message
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(' ')[1]),
    ).toEqual([
      'PUBLIC_ORIGIN',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'EASYPOST_API_KEY',
      'EASYPOST_WEBHOOK_SECRET',
      'MAIL',
      'DATABASE_URL',
      'SUPABASE_URL',
      'SUPABASE_ANON_KEY',
      'SUPABASE_SERVICE_ROLE_KEY',
      'APP_SECRET',
    ]);
  });

  it('lists every production error at once, the malformed and the missing alike', () => {
    // A malformed variable used to hide every rule about the whole environment.
    expect(
      namesIn(() => loadConfig({ NODE_ENV: 'production', PORT: 'eighty', APP_SECRET: 'short' })),
    ).toEqual([
      'PORT',
      'APP_SECRET',
      'PUBLIC_ORIGIN',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'EASYPOST_API_KEY',
      'EASYPOST_WEBHOOK_SECRET',
      'MAIL',
      'DATABASE_URL',
    ]);
    expect(namesIn(() => loadConfig({ NODE_ENV: 'production' }))).toEqual([
      'PUBLIC_ORIGIN',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'EASYPOST_API_KEY',
      'EASYPOST_WEBHOOK_SECRET',
      'MAIL',
      'DATABASE_URL',
      'APP_SECRET',
    ]);
  });

  it('requires a database and APP_SECRET in production, each named with what it is for', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL })).toThrow(
      /DATABASE_URL is required in production: .*PostgreSQL.*\n.*APP_SECRET is required in production: at least 32 random characters/s,
    );
    const config = loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL });
    expect(config.databaseUrl).toBe(PRODUCTION_BASE.DATABASE_URL);
    expect(config.appSecret).toBe(PRODUCTION_BASE.APP_SECRET);
  });

  it('takes payments with the test provider outside production and requires Stripe in production', () => {
    expect(loadConfig({}).payments).toEqual({ provider: 'test' });
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: SITE })).toThrow(
      /STRIPE_SECRET_KEY is required when payments go through Stripe\n.*STRIPE_WEBHOOK_SECRET is required/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_ORIGIN: SITE, PAYMENTS: 'test' })).toThrow(
      /PAYMENTS cannot be test in production/,
    );
    expect(
      loadConfig({
        ...PRODUCTION_BASE,
        PUBLIC_ORIGIN: SITE,
        STRIPE_SECRET_KEY: 'sk_live_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        ...MAIL,
      }).payments,
    ).toEqual({ provider: 'stripe', secretKey: 'sk_live_1', webhookSecret: 'whsec_1' });
  });

  it('buys labels from the test carrier outside production and requires EasyPost in production', () => {
    expect(loadConfig({}).carriers).toEqual({ provider: 'test', failLabels: false });
    expect(loadConfig({ TEST_CARRIER_FAIL_LABELS: '1' }).carriers).toEqual({
      provider: 'test',
      failLabels: true,
    });
    expect(() => loadConfig({ TEST_CARRIER_FAIL_LABELS: 'yes' })).toThrow(
      /TEST_CARRIER_FAIL_LABELS must be 1 \(labels fail\) or 0/,
    );
    expect(() => loadConfig({ CARRIERS: 'royalmail' })).toThrow(/CARRIERS must be test or easypost/);
    const { EASYPOST_API_KEY: _key, EASYPOST_WEBHOOK_SECRET: _secret, ...withoutCarrier } = PRODUCTION_BASE;
    expect(() => loadConfig({ ...withoutCarrier, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL })).toThrow(
      /EASYPOST_API_KEY is required when parcel labels are bought through EasyPost\n.*EASYPOST_WEBHOOK_SECRET is required/,
    );
    expect(() =>
      loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL, CARRIERS: 'test' }),
    ).toThrow(/CARRIERS cannot be test in production: use easypost/);
    expect(() => loadConfig({ CARRIERS: 'easypost', EASYPOST_API_KEY: 'sk_live_1', ...MAIL })).toThrow(
      /EASYPOST_API_KEY must be an EasyPost API key/,
    );
    expect(loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL }).carriers).toEqual({
      provider: 'easypost',
      apiKey: EASYPOST.EASYPOST_API_KEY,
      webhookSecret: EASYPOST.EASYPOST_WEBHOOK_SECRET,
      baseUrl: 'https://api.easypost.com',
    });
    expect(
      loadConfig({ CARRIERS: 'easypost', ...EASYPOST, EASYPOST_BASE_URL: 'http://127.0.0.1:4010/' }).carriers,
    ).toMatchObject({ provider: 'easypost', baseUrl: 'http://127.0.0.1:4010' });
  });

  it('never seeds demo data in production or on the hosted backend', () => {
    expect(
      loadConfig({
        ...PRODUCTION_BASE,
        PUBLIC_ORIGIN: SITE,
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        ...MAIL,
      }).seedDemo,
    ).toBe(false);
    expect(
      loadConfig({
        BACKEND: 'supabase',
        DATABASE_URL: 'postgres://h/db',
        SUPABASE_URL: 'https://abc.supabase.co',
        SUPABASE_ANON_KEY: 'anon-key-0123456789abcdef',
        SUPABASE_SERVICE_ROLE_KEY: 'service-key-0123456789abcdef',
        APP_SECRET: 's'.repeat(40),
      }).seedDemo,
    ).toBe(false);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('takes the origin of links in emails from PUBLIC_ORIGIN, required in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ...STRIPE, ...MAIL })).toThrow(
      /PUBLIC_ORIGIN is required in production: the site's public origin, which links in emails lead to/,
    );
    const production = loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: `${SITE}/`, ...STRIPE, ...MAIL });
    expect(production.siteOrigin).toBe(SITE);
    // CORS keeps admitting PUBLIC_ORIGIN as it was given.
    expect(production.publicOrigin).toBe(`${SITE}/`);
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'ftp://reshelf.example' })).toThrow(
      /PUBLIC_ORIGIN must be an http:\/\/ or https:\/\/ origin/,
    );
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'reshelf.example' })).toThrow(/PUBLIC_ORIGIN must be a URL/);
  });

  it('listens on 127.0.0.1 outside production unless HOST asks for more, and on every interface in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
    expect(loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL }).host).toBe('0.0.0.0');
    expect(
      loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL, HOST: '10.0.0.5' }).host,
    ).toBe('10.0.0.5');
  });

  it('defaults the origin of links outside production to the address the server listens on', () => {
    expect(loadConfig({}).siteOrigin).toBe('http://localhost:3000');
    expect(loadConfig({ NODE_ENV: 'test', PORT: '4100' }).siteOrigin).toBe('http://localhost:4100');
    expect(loadConfig({ HOST: '127.0.0.1', PORT: '4100' }).siteOrigin).toBe('http://127.0.0.1:4100');
    expect(loadConfig({ HOST: '::1', PORT: '4100' }).siteOrigin).toBe('http://[::1]:4100');
    expect(loadConfig({ HOST: '::', PORT: '4100' }).siteOrigin).toBe('http://localhost:4100');
    expect(loadConfig({ PORT: '4100', PUBLIC_ORIGIN: 'http://books.test:5173' }).siteOrigin).toBe(
      'http://books.test:5173',
    );
  });

  it('trusts no proxy by default, even in production', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE, ...MAIL }).trustProxy).toBe(
      false,
    );
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes TRUST_PROXY as a hop count or a list of proxy addresses and ranges', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 2 ' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([
    ['true', /TRUST_PROXY cannot trust every proxy: any client could then choose the address/],
    ['11', /TRUST_PROXY must be a hop count from 1 to 10/],
    [
      '10.0.0.0/33',
      /TRUST_PROXY must be off, a hop count such as 1, or a comma-separated list .*"10\.0\.0\.0\/33"/,
    ],
    ['proxy.internal', /not an address: "proxy\.internal"\) \(got "proxy\.internal"\)/],
    ['10.0.0.1,,10.0.0.2', /not an address: ""/],
  ])('stops on TRUST_PROXY=%s with a message naming it', (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it('keeps mail in the dev mailbox outside production and refuses that in production', () => {
    expect(loadConfig({}).mail).toEqual({ transport: 'dev', from: 'Reshelf <no-reply@reshelf.test>' });
    const production = { ...PRODUCTION_BASE, PUBLIC_ORIGIN: SITE, ...STRIPE };
    expect(() => loadConfig(production)).toThrow(
      /MAIL is required in production: smtp \(with SMTP_URL\) or resend \(with RESEND_API_KEY\)/,
    );
    expect(() => loadConfig({ ...production, MAIL: 'dev' })).toThrow(/MAIL cannot be dev in production/);
    expect(() => loadConfig({ ...production, MAIL: 'sendgrid' })).toThrow(/MAIL must be dev, smtp or resend/);
    expect(loadConfig({ ...production, ...MAIL }).mail).toEqual({
      transport: 'smtp',
      from: 'Reshelf <no-reply@reshelf.example>',
      smtpUrl: 'smtp://postman:s3cret-pass@smtp.reshelf.example:587',
    });
    expect(
      loadConfig({
        ...production,
        MAIL: 'resend',
        RESEND_API_KEY: 're_123456789',
        MAIL_FROM: 'no-reply@reshelf.example',
      }).mail,
    ).toEqual({ transport: 'resend', from: 'no-reply@reshelf.example', resendApiKey: 're_123456789' });
  });

  it('names each missing or malformed mail setting, without repeating a credential', () => {
    const issues = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).issues;
      }
      return [];
    };
    expect(issues({ MAIL: 'smtp' })).toEqual([
      'SMTP_URL is required when MAIL=smtp, e.g. smtp://user:password@smtp.example.com:587',
      'MAIL_FROM is required when MAIL=smtp: the sender, e.g. Reshelf <no-reply@reshelf.example>',
    ]);
    expect(issues({ MAIL: 'resend', MAIL_FROM: 'no-reply@reshelf.example' })).toEqual([
      'RESEND_API_KEY is required when MAIL=resend',
    ]);
    const badUrl = issues({ ...MAIL, SMTP_URL: 'https://postman:s3cret-pass@smtp.reshelf.example' });
    expect(badUrl).toEqual([
      'SMTP_URL must be an smtp:// (STARTTLS) or smtps:// (TLS) URL with a host, e.g. smtp://user:password@smtp.example.com:587',
    ]);
    expect(badUrl.join('\n')).not.toContain('s3cret');
    expect(issues({ ...MAIL, RESEND_API_KEY: 'sk_not_resend' })[0]).toBe(
      'RESEND_API_KEY must be a Resend API key (re_…)',
    );
    for (const from of ['not an address', 'Reshelf <no-reply>', 'a@b.example, c@d.example']) {
      expect(issues({ ...MAIL, MAIL_FROM: from })[0]).toMatch(
        /^MAIL_FROM must be an email address, or a name and an address: Reshelf <no-reply@reshelf\.example>/,
      );
    }
    expect(loadConfig({ ...MAIL, MAIL_FROM: '"Reshelf Books" <books@reshelf.example>' }).mail.from).toBe(
      '"Reshelf Books" <books@reshelf.example>',
    );
  });
});
