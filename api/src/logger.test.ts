/**
 * The logger's options: no wildcard redaction (pino would walk every object of every line for
 * it), a request serializer that lets no header through, and exact-path redaction left as a
 * backstop for a log call that names a credential at the top of its object.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { humanLine, humanLogStream, loggerOptions, REDACT_PATHS } from './logger.ts';

async function linesOf(run: (app: FastifyInstance) => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = Fastify({ logger: loggerOptions('info', stream) });
  try {
    await run(app);
  } finally {
    await app.close();
  }
  return lines.join('');
}

describe('logger options', () => {
  it('redacts by exact paths only, never by wildcard', () => {
    expect(REDACT_PATHS.filter((path) => path.includes('*'))).toEqual([]);
  });

  it('logs a request by method, path, address and user agent: no header, no query', async () => {
    const text = await linesOf(async (app) => {
      app.get('/probe', async (request) => {
        request.log.info({ req: request }, 'request');
        return {};
      });
      await app.inject({
        method: 'GET',
        url: '/probe?email=someone%40example.org',
        headers: {
          authorization: 'Bearer header-secret-token',
          cookie: 'sb-access-token=cookie-secret',
          'x-api-key': 'rsk_api-key-secret',
          'user-agent': 'probe-agent',
        },
      });
    });
    const line = text.split('\n').find((entry) => entry.includes('"msg":"request"')) ?? '';
    expect(JSON.parse(line).req).toEqual({
      method: 'GET',
      url: '/probe',
      remoteAddress: '127.0.0.1',
      userAgent: 'probe-agent',
    });
    for (const secret of ['header-secret-token', 'cookie-secret', 'rsk_api-key-secret', 'someone']) {
      expect(text).not.toContain(secret);
    }
  });

  it('still redacts a credential named at the top of a log call', async () => {
    const text = await linesOf(async (app) => {
      app.log.info(
        {
          password: 'pw-secret',
          token: 'token-secret',
          headers: { authorization: 'Bearer auth-secret', cookie: 'c=cookie-secret', accept: 'text/html' },
        },
        'careless',
      );
    });
    for (const secret of ['pw-secret', 'token-secret', 'auth-secret', 'cookie-secret']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('text/html');
  });
});

describe('people’s lines (pnpm start outside production)', () => {
  const at = new Date(2026, 11, 10, 9, 5, 7).getTime();

  it('writes a request as time, method, path, status and milliseconds', () => {
    const json = JSON.stringify({
      level: 30,
      time: at,
      req: { method: 'GET', url: '/trpc/catalogue.listings.browse' },
      res: { statusCode: 200 },
      responseTime: 11.8,
      msg: 'request',
    });
    expect(humanLine(json)).toBe('09:05:07 GET /trpc/catalogue.listings.browse 200 11.8 ms');
  });

  it('says the level when it is not info, and a warning’s error without its stack', () => {
    const warning = JSON.stringify({
      level: 40,
      time: at,
      err: { message: 'terminating connection', stack: 'error: terminating connection\n    at x (y.js:1:1)' },
      msg: 'request log lines not written',
    });
    expect(humanLine(warning)).toBe(
      '09:05:07 warning: request log lines not written: terminating connection',
    );
    const error = JSON.stringify({
      level: 50,
      time: at,
      err: { message: 'boom', stack: 'Error: boom\n    at z' },
      msg: 'request failed',
    });
    expect(humanLine(error)).toBe('09:05:07 error: request failed\nError: boom\n    at z');
    expect(
      humanLine(JSON.stringify({ level: 30, time: at, msg: 'Server listening at http://127.0.0.1:3000' })),
    ).toBe('09:05:07 Server listening at http://127.0.0.1:3000');
    expect(humanLine('not json\n')).toBe('not json');
  });

  it('is what development writes; production writes JSON, and LOG_FORMAT says otherwise', () => {
    expect(loadConfig({}).logFormat).toBe('human');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://reshelf:pw@db.example:5432/reshelf',
        APP_SECRET: 'a-production-secret-that-is-long-enough-0123',
        PUBLIC_ORIGIN: 'https://reshelf.example',
        STRIPE_SECRET_KEY: 'sk_test_logger',
        STRIPE_WEBHOOK_SECRET: 'whsec_logger',
        EASYPOST_API_KEY: 'EZTKoffline0123',
        EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
        MAIL: 'smtp',
        SMTP_URL: 'smtp://user:pw@mail.example:587',
        MAIL_FROM: 'no-reply@reshelf.example',
      }).logFormat,
    ).toBe('json');
  });

  it('passes every line through humanLogStream', () => {
    const written: string[] = [];
    humanLogStream({ write: (text) => written.push(text) }).write(
      `${JSON.stringify({ level: 30, time: at, msg: 'hello' })}\n`,
    );
    expect(written).toEqual(['09:05:07 hello\n']);
  });
});
