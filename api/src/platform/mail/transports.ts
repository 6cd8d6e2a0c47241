/**
 * The mail transports behind the outbox (decision 0028): the dev mailbox, an SMTP server
 * (nodemailer) and Resend's HTTP API. A transport sends one message and answers the
 * provider's id for it, or throws a MailDeliveryError that says whether trying the same
 * message again could succeed.
 */
import nodemailer from 'nodemailer';

/** One outbox row, ready to go. */
export interface OutboundMessage {
  /** The outbox row's id: the provider's idempotency key is made from it. */
  id: string;
  /** The Message-ID header, the same on every attempt of the row. */
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post for a non-essential message. */
  headers: Record<string, string>;
}

export interface MailTransport {
  readonly name: 'dev' | 'smtp' | 'resend';
  /** Sends the message; answers the provider's id for it. */
  send(message: OutboundMessage): Promise<{ providerMessageId: string }>;
  close(): Promise<void>;
}

/**
 * A message that did not go. `permanent`: the provider refused this message for good (an
 * address that does not exist, a message it will never accept), so trying again is pointless.
 * Anything else (a timeout, a refused connection, a rate limit, wrong credentials, a server
 * error) may pass on a later attempt.
 */
export class MailDeliveryError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MailDeliveryError';
    this.permanent = options.permanent;
  }
}

/**
 * The dev mailbox: the outbox row is the message, read at /dev/mailbox. Sending only records
 * that it was "delivered" there.
 */
export function createDevTransport(): MailTransport {
  return {
    name: 'dev',
    async send(message) {
      return { providerMessageId: message.messageId };
    },
    async close() {},
  };
}

export interface SmtpTransportOptions {
  /** smtp://user:password@host:587 (STARTTLS, required) or smtps://…:465 (TLS from the start). */
  url: string;
  /** Passed to Node's TLS: tests accept the test server's self-signed certificate. */
  tls?: { rejectUnauthorized?: boolean };
  /** Milliseconds for connecting, the greeting, and each silence of the socket. */
  timeouts?: { connection?: number; greeting?: number; socket?: number };
}

/**
 * SMTP through nodemailer. smtp:// upgrades with STARTTLS and refuses a server that does not
 * offer it (`?requireTLS=false` in the URL allows a plain local relay); smtps:// is TLS from
 * the first byte. Other nodemailer options may ride in the URL's query, e.g.
 * `?tls.rejectUnauthorized=false` for a self-signed certificate.
 */
export function createSmtpTransport(options: SmtpTransportOptions): MailTransport {
  const secure = new URL(options.url).protocol === 'smtps:';
  // Options given here are defaults: nodemailer lets the URL's own query override them.
  const transporter = nodemailer.createTransport({
    url: options.url,
    secure,
    requireTLS: !secure,
    connectionTimeout: options.timeouts?.connection ?? 10_000,
    greetingTimeout: options.timeouts?.greeting ?? 10_000,
    socketTimeout: options.timeouts?.socket ?? 30_000,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  return {
    name: 'smtp',
    async send(message) {
      try {
        const info = await transporter.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          headers: message.headers,
        });
        return { providerMessageId: info.serverMessageId ?? info.messageId };
      } catch (error) {
        const failure = error as {
          message?: string;
          code?: string;
          command?: string;
          permanent?: boolean;
          response?: string;
        };
        // Final: the server refused this recipient or this message with a 5xx, or nodemailer
        // found the address or message unsendable before asking. Anything about the
        // connection, TLS or the login is the operator's to fix: the message waits.
        const aboutTheMessage = failure.code === 'EENVELOPE' || failure.code === 'EMESSAGE';
        const permanent = aboutTheMessage && failure.permanent !== false;
        const step = failure.command && failure.command !== 'CONN' ? ` (${failure.command})` : '';
        throw new MailDeliveryError(`SMTP${step}: ${failure.response ?? failure.message ?? String(error)}`, {
          permanent,
          cause: error,
        });
      }
    },
    async close() {
      transporter.close();
    },
  };
}

export const RESEND_ENDPOINT = 'https://api.resend.com/emails';

export interface ResendTransportOptions {
  apiKey: string;
  /** The API's address; tests point it at a local server answering as Resend does. */
  endpoint?: string;
  /** How long one request may take, in milliseconds. */
  timeoutMs?: number;
}

/**
 * Resend's API (`POST /emails`), with plain fetch. The outbox row's id is the request's
 * Idempotency-Key, so a retry of a request whose answer was lost (within Resend's 24 hours)
 * sends nothing again and answers the same id.
 */
export function createResendTransport(options: ResendTransportOptions): MailTransport {
  const endpoint = options.endpoint ?? RESEND_ENDPOINT;
  const timeoutMs = options.timeoutMs ?? 15_000;
  return {
    name: 'resend',
    async send(message) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.apiKey}`,
            'content-type': 'application/json',
            'idempotency-key': `reshelf-outbox/${message.id}`,
            'user-agent': 'reshelf-bff',
          },
          body: JSON.stringify({
            from: message.from,
            to: [message.to],
            subject: message.subject,
            text: message.text,
            html: message.html,
            ...(Object.keys(message.headers).length > 0 ? { headers: message.headers } : {}),
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        throw new MailDeliveryError(
          timedOut
            ? `Resend did not answer within ${timeoutMs / 1000} s`
            : `Resend could not be reached: ${(error as Error).message}`,
          { permanent: false, cause: error },
        );
      }
      const body = (await response.json().catch(() => null)) as { id?: unknown; message?: unknown } | null;
      if (response.ok && typeof body?.id === 'string') return { providerMessageId: body.id };
      const detail = typeof body?.message === 'string' ? body.message : response.statusText;
      const status = response.status;
      // 400 and 422: Resend will never accept this message. 401/403 (the key), 408, 409 (the
      // same idempotency key still in flight), 429 and 5xx may pass later.
      const permanent = status === 400 || status === 404 || status === 413 || status === 422;
      throw new MailDeliveryError(`Resend answered ${status}: ${detail || 'no reason given'}`, { permanent });
    },
    async close() {},
  };
}
