/**
 * The logger's options: no wildcard redaction (pino would walk every object of every line for
 * it), a request serializer that lets no header through, and exact-path redaction left as a
 * backstop for a log call that names a credential at the top of its object.
 */
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, REDACT_PATHS } from './logger.ts';

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
