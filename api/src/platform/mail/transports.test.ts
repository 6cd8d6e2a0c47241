/**
 * The transports against real servers in the test: SMTP through an smtp-server sink (STARTTLS
 * and implicit TLS with its self-signed certificate, logins, refusals), and Resend's API
 * against a local HTTP server answering as Resend does.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawHeader, type SmtpSink, type SmtpSinkOptions, startSmtpSink } from '../../testing/smtp.ts';
import {
  createResendTransport,
  createSmtpTransport,
  MailDeliveryError,
  type MailTransport,
  type OutboundMessage,
} from './transports.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  cleanups.push(() => started.close());
  return started;
}

function smtp(url: string): MailTransport {
  const transport = createSmtpTransport({
    url,
    timeouts: { connection: 5_000, greeting: 5_000, socket: 5_000 },
  });
  cleanups.push(() => transport.close());
  return transport;
}

const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
  id: '6f1c7c1e-6a53-4c53-9d57-0a1f2b3c4d5e',
  messageId: '<6f1c7c1e-6a53-4c53-9d57-0a1f2b3c4d5e@reshelf.example>',
  from: 'Reshelf <no-reply@reshelf.example>',
  to: 'jo.march@example.com',
  subject: 'Price drop: “Little Women” is now £4.00',
  text: 'Little Women is now £4.00 (was £6.00).\n\nSee it: https://reshelf.example/listing/little-women\n',
  html: '<p>Little Women is now £4.00 (was £6.00).</p><p><a href="https://reshelf.example/listing/little-women">See it</a></p>',
  headers: {},
  ...overrides,
});

async function failure(promise: Promise<unknown>): Promise<MailDeliveryError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(MailDeliveryError);
    return error as MailDeliveryError;
  }
  throw new Error('the send succeeded');
}

describe('the SMTP transport', () => {
  it('upgrades with STARTTLS, logs in, and delivers both parts with the headers it was given', async () => {
    const server = await sink();
    const unsubscribe = `https://reshelf.example/api/unsubscribe?u=${'a'.repeat(36)}&l=wishlist_alerts&s=${'b'.repeat(43)}`;
    const sent = await smtp(server.url).send(
      message({
        headers: {
          'List-Unsubscribe': `<${unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      }),
    );
    expect(server.received).toHaveLength(1);
    const [mail] = server.received;
    expect(mail).toMatchObject({
      tls: true,
      user: 'postman',
      mailFrom: 'no-reply@reshelf.example',
      rcptTo: ['jo.march@example.com'],
    });
    const parsed = mail!.parsed;
    expect(parsed.from?.value).toEqual([{ name: 'Reshelf', address: 'no-reply@reshelf.example' }]);
    expect(parsed.to).toMatchObject({ value: [{ address: 'jo.march@example.com' }] });
    expect(parsed.subject).toBe('Price drop: “Little Women” is now £4.00');
    expect(parsed.messageId).toBe('<6f1c7c1e-6a53-4c53-9d57-0a1f2b3c4d5e@reshelf.example>');
    expect(sent.providerMessageId).toBe('<6f1c7c1e-6a53-4c53-9d57-0a1f2b3c4d5e@reshelf.example>');
    expect(parsed.text).toBe(message().text);
    expect(parsed.html).toBe(message().html);
    // As RFC 8058 reads them: the https address in angle brackets, and the one-click token.
    expect(rawHeader(mail!, 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(rawHeader(mail!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  });

  it('sends nothing without the headers it was not given', async () => {
    const server = await sink();
    await smtp(server.url).send(message());
    expect(rawHeader(server.received[0]!, 'List-Unsubscribe')).toBeUndefined();
    expect(rawHeader(server.received[0]!, 'List-Unsubscribe-Post')).toBeUndefined();
  });

  it('speaks TLS from the first byte with smtps://', async () => {
    const server = await sink({ secure: true });
    expect(server.url.startsWith('smtps://')).toBe(true);
    await smtp(server.url).send(message());
    expect(server.received).toMatchObject([{ tls: true, user: 'postman' }]);
  });

  it('refuses a server without STARTTLS unless the URL allows a plain relay', async () => {
    const server = await sink({ noSTARTTLS: true });
    const plain = `smtp://127.0.0.1:${server.port}`;
    const refused = await failure(smtp(plain).send(message()));
    expect(refused.permanent).toBe(false);
    expect(refused.message).toBe('SMTP (STARTTLS): 500 Error: command not recognized');
    expect(server.received).toHaveLength(0);

    await smtp(`${plain}?requireTLS=false`).send(message());
    expect(server.received).toMatchObject([{ tls: false, user: null }]);
  });

  it('checks the server’s certificate unless told to accept a self-signed one', async () => {
    const server = await sink();
    const strict = server.url.replace('?tls.rejectUnauthorized=false', '');
    const refused = await failure(smtp(strict).send(message()));
    expect(refused.permanent).toBe(false);
    expect(refused.message).toMatch(/certificate/i);
    expect(server.received).toHaveLength(0);
  });

  it('gives up on a refused recipient for good, and tries again after anything else', async () => {
    const rejecting = await sink({ rejectRecipients: ['nobody@example.com'] });
    const refused = await failure(smtp(rejecting.url).send(message({ to: 'nobody@example.com' })));
    expect(refused.permanent).toBe(true);
    expect(refused.message).toMatch(/550.*No such mailbox/);
    const malformed = await failure(smtp(rejecting.url).send(message({ to: 'not an address' })));
    expect(malformed.permanent).toBe(true);
    expect(rejecting.received).toHaveLength(0);

    const busy = await sink({ failData: { code: 451, message: 'Try again later' } });
    const later = await failure(smtp(busy.url).send(message()));
    expect(later.permanent).toBe(false);
    expect(later.message).toMatch(/451 Try again later/);

    const wrongLogin = await failure(smtp(busy.url.replace('postman:', 'postman2:')).send(message()));
    expect(wrongLogin.permanent).toBe(false);
    expect(wrongLogin.message).toMatch(/535/);

    const closed = await sink();
    const { port } = closed;
    await closed.close();
    const unreachable = await failure(smtp(`smtp://127.0.0.1:${port}`).send(message()));
    expect(unreachable.permanent).toBe(false);
    expect(unreachable.message).toMatch(/ECONNREFUSED/);
  });
});

interface Captured {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A local server answering POST /emails as Resend does, with the given status and body. */
async function fakeResend(answer: { status: number; body?: unknown } | 'never'): Promise<{
  endpoint: string;
  requests: Captured[];
}> {
  const requests: Captured[] = [];
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      requests.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: JSON.parse(raw),
      });
      if (answer === 'never') return;
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/emails`, requests };
}

describe('the Resend transport', () => {
  it('posts the message with the key and an idempotency key made from the outbox row', async () => {
    const resend = await fakeResend({ status: 200, body: { id: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' } });
    const transport = createResendTransport({ apiKey: 're_test_123', endpoint: resend.endpoint });
    const headers = {
      'List-Unsubscribe': '<https://reshelf.example/api/unsubscribe?u=x&l=wishlist_alerts&s=y>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    };
    const sent = await transport.send(message({ headers }));
    expect(sent).toEqual({ providerMessageId: '49a3999c-0ce1-4ea6-ab68-afcd6dc2e794' });
    expect(resend.requests).toHaveLength(1);
    const [request] = resend.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/emails' });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer re_test_123',
      'content-type': 'application/json',
      'idempotency-key': 'reshelf-outbox/6f1c7c1e-6a53-4c53-9d57-0a1f2b3c4d5e',
    });
    expect(request!.body).toEqual({
      from: 'Reshelf <no-reply@reshelf.example>',
      to: ['jo.march@example.com'],
      subject: message().subject,
      text: message().text,
      html: message().html,
      headers,
    });
    // The same row again (a lost answer): the same idempotency key, so Resend sends nothing twice.
    await transport.send(message({ headers }));
    expect(resend.requests[1]!.headers['idempotency-key']).toBe(request!.headers['idempotency-key']);
  });

  it('gives up on a message Resend refuses, and tries again after a 5xx, a 429 or a bad key', async () => {
    const invalid = await fakeResend({
      status: 422,
      body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
    });
    const refused = await failure(
      createResendTransport({ apiKey: 're_x', endpoint: invalid.endpoint }).send(message()),
    );
    expect(refused.permanent).toBe(true);
    expect(refused.message).toBe('Resend answered 422: Invalid `to` field.');

    for (const [status, name] of [
      [500, 'internal_server_error'],
      [429, 'rate_limit_exceeded'],
      [401, 'missing_api_key'],
    ] as const) {
      const server = await fakeResend({
        status,
        body: { statusCode: status, name, message: `${name} here` },
      });
      const later = await failure(
        createResendTransport({ apiKey: 're_x', endpoint: server.endpoint }).send(message()),
      );
      expect([status, later.permanent]).toEqual([status, false]);
      expect(later.message).toBe(`Resend answered ${status}: ${name} here`);
    }
  });

  it('stops waiting for an answer after its timeout, to try again later', async () => {
    const silent = await fakeResend('never');
    const late = await failure(
      createResendTransport({ apiKey: 're_x', endpoint: silent.endpoint, timeoutMs: 300 }).send(message()),
    );
    expect(late.permanent).toBe(false);
    expect(late.message).toBe('Resend did not answer within 0.3 s');
    expect(silent.requests).toHaveLength(1);
  });
});
