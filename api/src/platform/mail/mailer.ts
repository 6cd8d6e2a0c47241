/**
 * The mail port (decision 0028). `send` writes the message into email_outbox, on the caller's
 * transaction when it has one, so the message exists exactly when the change that caused it
 * committed. `deliver` is the sender: it claims due rows (FOR UPDATE SKIP LOCKED, with a
 * lease), hands each to the transport, and records the outcome. Every BFF instance wakes its
 * sender when a row is queued (a NOTIFY from the insert, at commit: see delivery.ts) and the
 * job runner's `mail.deliver` is the backstop for retries and for anything a wake-up missed.
 */
import { randomUUID } from 'node:crypto';
import { EMAIL_LIST_LABELS } from '@reshelf/contracts';
import { sql, type UpdateObject } from 'kysely';
import { parseMailFrom } from '../../config.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import type { Secrets } from '../../secrets.ts';
import { unsubscribePath } from '../unsubscribe/unsubscribe.service.ts';
import type { DeliveryReport, Mailer, MailLog, OutgoingEmail, SendOptions } from './port.ts';
import { emailClass, type UnsubscribableList } from './registry.ts';
import { isSuppressed } from './suppressions.ts';
import { MailDeliveryError, type MailTransport, type OutboundMessage } from './transports.ts';

export type { DeliveryReport, Mailer, MailLog, OutgoingEmail, SendOptions };

/** How long a claim lasts: longer than the transports' own timeouts. */
export const MAIL_LEASE_MS = 2 * 60_000;
/** Attempts before a message is marked failed. */
export const MAIL_MAX_ATTEMPTS = 8;
/** The wait after the first failure; it doubles after each, up to MAIL_MAX_BACKOFF_MS. */
export const MAIL_FIRST_BACKOFF_MS = 60_000;
export const MAIL_MAX_BACKOFF_MS = 60 * 60_000;
const SUBJECT_MAX = 300;
const ERROR_MAX = 1000;

/** The wait before the next attempt after `attempts` failed ones: 1, 2, 4 … 60 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(MAIL_FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAIL_MAX_BACKOFF_MS);
}

/** A subject on one line, at most 300 characters (a header, and the column's limit). */
function oneLineSubject(subject: string): string {
  const line = subject.replace(/\s+/g, ' ').trim() || 'A message from Reshelf';
  return line.length <= SUBJECT_MAX ? line : `${line.slice(0, SUBJECT_MAX - 1)}…`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The unsubscribe paragraph of a non-essential message, in both parts. */
function withUnsubscribeFooter(
  message: OutgoingEmail,
  pageUrl: string,
  label: string,
): { text: string; html: string } {
  const sentence = `You get these emails because you have a Reshelf account. To stop ${label}, unsubscribe:`;
  const text = `${message.text.replace(/\s+$/, '')}\n\n--\n${sentence} ${pageUrl}\n`;
  const footer = `<p style="color:#6b6258;font-size:13px;margin-top:24px">${escapeHtml(sentence)} <a href="${escapeHtml(pageUrl)}" style="color:#6b6258">${escapeHtml(pageUrl)}</a></p>`;
  const close = message.html.lastIndexOf('</div></body>');
  const html =
    close >= 0
      ? `${message.html.slice(0, close)}${footer}${message.html.slice(close)}`
      : `${message.html}${footer}`;
  return { text, html };
}

interface ClaimedRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  user_id: string | null;
  list: string | null;
  unsubscribe_url: string | null;
  attempts: number;
}

export interface MailerOptions {
  db: Database;
  transport: MailTransport;
  /** MAIL_FROM. */
  from: string;
  secrets: Secrets;
  /** The site's one public origin: unsubscribe links lead there. */
  origin: string;
  /**
   * The clock of claims, leases and backoff, for tests that move time on. Without it the
   * database's clock decides, the same one that stamped the rows: a row queued this very
   * millisecond is due, and instances whose clocks differ agree.
   */
  now?: () => Date;
}

export function createMailer(options: MailerOptions): Mailer {
  const { db, transport, secrets, origin } = options;
  const clock = options.now;
  /** Now, or `ms` from now, by the test's clock or the database's. */
  const at = (ms = 0) =>
    clock
      ? sql<Date>`${new Date(clock().getTime() + ms)}::timestamptz`
      : sql<Date>`statement_timestamp() + ${ms} * interval '1 millisecond'`;
  const from = parseMailFrom(options.from);
  if (!from) throw new Error(`MAIL_FROM is not an email address: ${options.from}`);
  const messageIdDomain = from.address.slice(from.address.lastIndexOf('@') + 1);

  async function claim(limit: number): Promise<{ rows: ClaimedRow[]; token: string }> {
    const token = randomUUID();
    const now = at();
    // One statement: a row is claimed by exactly one sender; rows another sender holds (or is
    // claiming right now) are skipped, not waited for. A claim whose lease ran out (its
    // sender died mid-send) is claimed again. The outer condition repeats the inner one, so a
    // row that changed under the claim is never taken twice.
    const { rows } = await sql<ClaimedRow>`
      update public.email_outbox as o
      set status = 'sending', lease_until = ${at(MAIL_LEASE_MS)}, lease_token = ${token},
          attempts = o.attempts + 1, last_attempt_at = ${now}
      where o.id in (
        select id from public.email_outbox
        where (status = 'queued' and next_attempt_at <= ${now})
           or (status = 'sending' and lease_until < ${now})
        order by next_attempt_at, created_at
        limit ${limit}
        for update skip locked
      )
        and ((o.status = 'queued' and o.next_attempt_at <= ${now})
          or (o.status = 'sending' and o.lease_until < ${now}))
      returning o.id, o.to_address, o.subject, o.text_body, o.html_body, o.message_id, o.user_id,
                o.list, o.unsubscribe_url, o.attempts`.execute(db);
    return { rows, token };
  }

  async function suppressed(row: ClaimedRow): Promise<boolean> {
    if (!row.list) return false;
    return isSuppressed(db, { userId: row.user_id, email: row.to_address }, row.list as UnsubscribableList);
  }

  /** Records an outcome, if the claim is still ours (a claim whose lease ran out is not). */
  async function settle(
    row: ClaimedRow,
    token: string,
    values: UpdateObject<DB, 'email_outbox'>,
    log?: MailLog,
  ): Promise<void> {
    const result = await db
      .updateTable('email_outbox')
      .set({ ...values, lease_until: null, lease_token: null })
      .where('id', '=', row.id)
      .where('lease_token', '=', token)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      log?.(`mail ${row.id}: its lease ran out before the outcome was recorded`);
    }
  }

  async function deliverOne(
    row: ClaimedRow,
    token: string,
    report: DeliveryReport,
    log?: MailLog,
  ): Promise<void> {
    if (await suppressed(row)) {
      await settle(row, token, { status: 'suppressed' }, log);
      report.suppressed += 1;
      return;
    }
    const headers: Record<string, string> = {};
    if (row.unsubscribe_url) {
      headers['List-Unsubscribe'] = `<${row.unsubscribe_url}>`;
      headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    }
    const message: OutboundMessage = {
      id: row.id,
      messageId: row.message_id,
      from: options.from,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      headers,
    };
    try {
      const { providerMessageId } = await transport.send(message);
      await settle(
        row,
        token,
        { status: 'sent', sent_at: at(), provider_message_id: providerMessageId.slice(0, 500) },
        log,
      );
      report.sent += 1;
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX);
      const permanent = error instanceof MailDeliveryError && error.permanent;
      if (permanent || row.attempts >= MAIL_MAX_ATTEMPTS) {
        await settle(row, token, { status: 'failed', failed_at: at(), last_error: reason }, log);
        report.failed += 1;
      } else {
        await settle(
          row,
          token,
          {
            status: 'queued',
            last_error: reason,
            next_attempt_at: at(backoffMs(row.attempts)),
          },
          log,
        );
        report.retried += 1;
      }
      log?.(`mail ${row.id} (${row.message_id}) not sent on attempt ${row.attempts}`, error);
    }
  }

  return {
    transport: transport.name,

    async send(message, sendOptions = {}) {
      const kind = emailClass(message.template);
      if (!kind) throw new Error(`Unknown email template ${message.template}: add it to EMAIL_CLASSES`);
      const id = randomUUID();
      let text = message.text;
      let html = message.html;
      let unsubscribeUrl: string | null = null;
      if (!kind.essential) {
        const subject = message.userId ?? message.to.trim().toLowerCase();
        const path = unsubscribePath(secrets, subject, kind.list);
        // The page asks before it unsubscribes; the one-click address (for mail clients'
        // "Unsubscribe" button) unsubscribes on POST and shows the page on GET.
        unsubscribeUrl = `${origin}/api${path}`;
        ({ text, html } = withUnsubscribeFooter(message, `${origin}${path}`, EMAIL_LIST_LABELS[kind.list]));
      }
      await (sendOptions.trx ?? db)
        .insertInto('email_outbox')
        .values({
          id,
          to_address: message.to.trim(),
          subject: oneLineSubject(message.subject),
          text_body: text,
          html_body: html,
          template: message.template,
          user_id: message.userId ?? null,
          message_id: `<${id}@${messageIdDomain}>`,
          list: kind.essential ? null : kind.list,
          unsubscribe_url: unsubscribeUrl,
        })
        .execute();
      return id;
    },

    async deliver({ limit = 200, log } = {}) {
      const report: DeliveryReport = { sent: 0, retried: 0, failed: 0, suppressed: 0 };
      let handled = 0;
      while (handled < limit) {
        const { rows, token } = await claim(Math.min(5, limit - handled));
        if (rows.length === 0) break;
        handled += rows.length;
        await Promise.all(rows.map((row) => deliverOne(row, token, report, log)));
      }
      return report;
    },

    close: () => transport.close(),
  };
}
