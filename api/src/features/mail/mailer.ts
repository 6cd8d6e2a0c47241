/**
 * The mail port. Every message is recorded in email_outbox. The embedded backend delivers
 * to the dev mailbox (the outbox itself, read at /dev/mailbox outside production).
 */
import type { Database } from '../../db/index.ts';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  userId?: string | null;
}

export interface Mailer {
  send(message: OutgoingEmail): Promise<void>;
}

export function createDevMailbox(db: Database): Mailer {
  return {
    async send(message) {
      await db
        .insertInto('email_outbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          template: message.template,
          user_id: message.userId ?? null,
          status: 'sent',
          sent_at: new Date(),
        })
        .execute();
    },
  };
}
