/**
 * The mail port (decision 0028): what the rest of the API sends mail through. The one
 * implementation is the outbox in platform/mail/mailer.ts; the transports behind it (dev, SMTP,
 * Resend) are the adapters in ./transports.ts.
 */
import type { Database } from '../../db/index.ts';
import type { MailTransport } from './transports.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part. */
  html: string;
  /** Its key in the registry's EMAIL_CLASSES (essential, or the list it belongs to). */
  template: string;
  userId?: string | null;
}

export interface SendOptions {
  /**
   * The transaction of the change that causes the message: it is queued only if that
   * commits. Without one the message is queued on its own (and is as durable).
   */
  trx?: Database;
}

export type MailLog = (message: string, error?: unknown) => void;

export interface DeliveryReport {
  sent: number;
  /** Failed this time, queued again for later. */
  retried: number;
  /** Failed for good (refused, or out of attempts). */
  failed: number;
  /** Not sent: the person left the message's list. */
  suppressed: number;
}

export interface Mailer {
  /** The transport delivery goes through. */
  readonly transport: MailTransport['name'];
  /** Queues a message in the outbox; answers its row id. */
  send(message: OutgoingEmail, options?: SendOptions): Promise<string>;
  /** Sends what is due now, until nothing is or `limit` rows were handled. */
  deliver(options?: { limit?: number; log?: MailLog }): Promise<DeliveryReport>;
  close(): Promise<void>;
}
