/**
 * The durable outbox (decision 0028) on a real PostgreSQL: a message exists only if the
 * transaction that queued it committed; senders racing each other send every row once; a
 * failing transport is retried with backoff until the row fails, which the health panel shows;
 * a sender that died mid-send loses its lease and the row goes again with the same Message-ID;
 * a non-essential message carries one-click unsubscribe and is held back from whoever left its
 * list.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/index.ts';
import { createSecrets } from '../../secrets.ts';
import { platformHealth } from '../../staff/global-admin/health.service.ts';
import { createPerson } from '../../testing/catalogue.ts';
import { createTestDatabase, type TestDatabase } from '../../testing/db.ts';
import { confirmUnsubscribe } from '../unsubscribe/unsubscribe.service.ts';
import {
  createMailer,
  type DeliveryReport,
  MAIL_LEASE_MS,
  MAIL_MAX_ATTEMPTS,
  type OutgoingEmail,
} from './mailer.ts';
import { MailDeliveryError, type MailTransport, type OutboundMessage } from './transports.ts';

const ORIGIN = 'https://books.reshelf.example';
const secrets = createSecrets('outbox-test-secret-that-is-long-enough-0123456789');

let database: TestDatabase;
let readerId: string;
const handles: DatabaseHandle[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  readerId = await createPerson(database.handle.db, 'sam.reader@example.co.uk', 'Sam');
});

afterAll(async () => {
  for (const handle of handles) await handle.close();
  await database?.drop();
});

beforeEach(async () => {
  await database.handle.db.deleteFrom('email_outbox').execute();
  await database.handle.db.deleteFrom('email_suppressions').execute();
});

const db = () => database.handle.db;

/** A transport that keeps what it was given; `answer` decides each send. */
function recorder(
  answer: (message: OutboundMessage, call: number) => Promise<void> | void = () => {},
  name = 'provider',
) {
  const sent: OutboundMessage[] = [];
  const transport: MailTransport & { sent: OutboundMessage[] } = {
    name: 'smtp',
    sent,
    async send(message) {
      sent.push(message);
      await answer(message, sent.length);
      return { providerMessageId: `${name}-${sent.length}-${message.id}` };
    },
    async close() {},
  };
  return transport;
}

/** A clock the test moves on; it starts just after the rows' own `now()`. */
function testClock() {
  let at = Date.now() + 1_000;
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms;
    },
    set: (date: Date) => {
      at = date.getTime();
    },
  };
}

function mailerWith(transport: MailTransport, options: { now?: () => Date; handle?: DatabaseHandle } = {}) {
  return createMailer({
    db: (options.handle ?? database.handle).db,
    transport,
    from: 'Reshelf <no-reply@books.reshelf.example>',
    secrets,
    origin: ORIGIN,
    ...(options.now ? { now: options.now } : {}),
  });
}

const essential = (to: string, subject = 'Your order is on its way'): OutgoingEmail => ({
  to,
  subject,
  text: `${subject}.\n\nView your order: ${ORIGIN}/account/orders\n`,
  html: `<p>${subject}.</p>`,
  template: 'order.dispatched',
});

const priceDrop = (to: string, userId: string | null): OutgoingEmail => ({
  to,
  userId,
  subject: 'Price drop: Little Women is now £4.00',
  text: `Little Women is now £4.00 (was £6.00).\n\nSee it: ${ORIGIN}/listing/little-women\n`,
  html: '<!doctype html><html><body><div><p>Little Women is now £4.00.</p></div></body></html>',
  template: 'wishlist_alerts.price_drop',
});

const nothing: DeliveryReport = { sent: 0, retried: 0, failed: 0, suppressed: 0 };

async function row(id: string) {
  return db().selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('queueing', () => {
  it('keeps nothing of a transaction that rolled back, and sends what committed', async () => {
    const transport = recorder();
    const mailer = mailerWith(transport);
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await mailer.send(essential('rolled.back@example.com'), { trx });
          throw new Error('the change failed');
        }),
    ).rejects.toThrow('the change failed');

    // Queued inside a transaction still open: no other sender can see it yet.
    const other = mailerWith(recorder());
    const id = await db()
      .transaction()
      .execute(async (trx) => {
        const queued = await mailer.send(essential('committed@example.com'), { trx });
        expect(await other.deliver()).toEqual(nothing);
        return queued;
      });

    expect(await mailer.deliver()).toEqual({ ...nothing, sent: 1 });
    expect(transport.sent.map((message) => message.to)).toEqual(['committed@example.com']);
    expect(await db().selectFrom('email_outbox').select('to_address').execute()).toEqual([
      { to_address: 'committed@example.com' },
    ]);
    const sent = await row(id);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 1,
      provider_message_id: `provider-1-${id}`,
      message_id: `<${id}@books.reshelf.example>`,
      lease_token: null,
      lease_until: null,
      list: null,
      unsubscribe_url: null,
    });
    expect(transport.sent[0]).toMatchObject({
      id,
      messageId: `<${id}@books.reshelf.example>`,
      from: 'Reshelf <no-reply@books.reshelf.example>',
      headers: {},
    });
    // Sent once: another pass finds nothing.
    expect(await mailer.deliver()).toEqual(nothing);
  });

  it('finds a message due the moment it is queued, by the database’s clock', async () => {
    const transport = recorder();
    const mailer = mailerWith(transport);
    // Queued and delivered within the same millisecond, a hundred times: each goes at once.
    for (let n = 0; n < 100; n++) {
      await mailer.send(essential(`quick${n}@example.com`));
      expect([n, await mailer.deliver()]).toEqual([n, { ...nothing, sent: 1 }]);
    }
  });

  it('refuses a template nobody classified, and keeps a subject to one line of 300 characters', async () => {
    const mailer = mailerWith(recorder());
    await expect(mailer.send({ ...essential('a@example.com'), template: 'made.up' })).rejects.toThrow(
      'Unknown email template made.up: add it to EMAIL_CLASSES',
    );
    const id = await mailer.send(essential('a@example.com', `Line one\nLine two ${'x'.repeat(400)}`));
    const { subject } = await row(id);
    expect(subject).toHaveLength(300);
    expect(subject.startsWith('Line one Line two xxx')).toBe(true);
    expect(subject.endsWith('…')).toBe(true);
  });
});

describe('senders', () => {
  it('several senders racing send each row exactly once', async () => {
    const second = createDatabase(database.url, { max: 4 });
    handles.push(second);
    const a = recorder(() => new Promise((resolve) => setImmediate(resolve)));
    const b = recorder(() => new Promise((resolve) => setImmediate(resolve)));
    const senderA = mailerWith(a);
    const senderB = mailerWith(b, { handle: second });
    const ids: string[] = [];
    for (let n = 0; n < 60; n++) ids.push(await senderA.send(essential(`reader${n}@example.com`)));

    const reports = await Promise.all([
      senderA.deliver(),
      senderB.deliver(),
      senderA.deliver(),
      senderB.deliver(),
    ]);
    const sentIds = [...a.sent, ...b.sent].map((message) => message.id);
    expect(sentIds).toHaveLength(60);
    expect(new Set(sentIds)).toEqual(new Set(ids));
    expect(reports.reduce((total, report) => total + report.sent, 0)).toBe(60);
    const rows = await db().selectFrom('email_outbox').select(['status', 'attempts']).execute();
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('skips rows another sender is claiming instead of waiting for them, and leaves them to it', async () => {
    const sender = recorder();
    const mailer = mailerWith(sender);
    const ids = [
      await mailer.send(essential('one@example.com')),
      await mailer.send(essential('two@example.com')),
    ];
    // Another instance's claim, caught between locking the rows and committing.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const claim = db()
      .transaction()
      .execute(async (trx) => {
        await trx.selectFrom('email_outbox').select('id').where('id', 'in', ids).forUpdate().execute();
        locked();
        await released;
        await trx
          .updateTable('email_outbox')
          .set({
            status: 'sending',
            lease_until: new Date(Date.now() + MAIL_LEASE_MS),
            lease_token: '00000000-0000-4000-8000-0000000000cc',
          })
          .where('id', 'in', ids)
          .execute();
      });
    await holding;
    // Answers at once, with nothing: it neither waits for the lock nor takes the rows.
    expect(await mailer.deliver()).toEqual(nothing);
    release();
    await claim;
    expect(await mailer.deliver()).toEqual(nothing);
    expect(sender.sent).toHaveLength(0);
  });

  it('retries a failing transport with backoff, then marks the message failed, as the health panel shows', async () => {
    const clock = testClock();
    const transport = recorder(() => {
      throw new MailDeliveryError('SMTP: 451 Try again later', { permanent: false });
    });
    const mailer = mailerWith(transport, { now: clock.now });
    const id = await mailer.send(essential('patient@example.com'));

    const waits: number[] = [];
    for (let attempt = 1; attempt < MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await mailer.deliver()).toEqual({ ...nothing, retried: 1 });
      const queued = await row(id);
      expect(queued).toMatchObject({
        status: 'queued',
        attempts: attempt,
        last_error: 'SMTP: 451 Try again later',
      });
      waits.push((queued.next_attempt_at.getTime() - clock.now().getTime()) / 60_000);
      // Not due yet: nothing is tried before its time.
      expect(await mailer.deliver()).toEqual(nothing);
      clock.set(queued.next_attempt_at);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 60]);
    expect(await mailer.deliver()).toEqual({ ...nothing, failed: 1 });
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: MAIL_MAX_ATTEMPTS,
      failed_at: clock.now(),
      last_error: 'SMTP: 451 Try again later',
    });
    expect(transport.sent).toHaveLength(MAIL_MAX_ATTEMPTS);
    // Every attempt of the row carried the same Message-ID.
    expect(new Set(transport.sent.map((message) => message.messageId))).toEqual(
      new Set([`<${id}@books.reshelf.example>`]),
    );

    const health = await platformHealth(db(), clock.now(), { mailTransport: 'smtp' });
    expect(health.mail).toMatchObject({
      status: 'failing',
      transport: 'smtp',
      queued: 0,
      failedLastDay: 1,
      lastErrors: [
        {
          template: 'order.dispatched',
          status: 'failed',
          attempts: MAIL_MAX_ATTEMPTS,
          error: 'SMTP: 451 Try again later',
        },
      ],
    });
    expect(health.mail.problems).toContain(
      'Sending fails: the latest attempt failed within the last minute and nothing has been sent since',
    );
    expect(health.mail.problems).toContain('1 message failed in the last 24 hours');
  });

  it('fails a message the provider refuses for good at once', async () => {
    const transport = recorder(() => {
      throw new MailDeliveryError('SMTP (RCPT TO): 550 No such mailbox', { permanent: true });
    });
    const mailer = mailerWith(transport);
    const id = await mailer.send(essential('nobody@example.com'));
    expect(await mailer.deliver()).toEqual({ ...nothing, failed: 1 });
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('resends, with the same Message-ID, a message whose sender died mid-send once its lease ran out', async () => {
    const clock = testClock();
    let called!: () => void;
    const sending = new Promise<void>((resolve) => {
      called = resolve;
    });
    let answerLate!: () => void;
    const hung = recorder(() => {
      called();
      // The process "dies" here: its send never answers until the test lets it.
      return new Promise<void>((resolve) => {
        answerLate = resolve;
      });
    }, 'dead');
    const dying = mailerWith(hung, { now: clock.now });
    const survivor = recorder(() => {}, 'survivor');
    const other = mailerWith(survivor, { now: clock.now });
    const id = await dying.send(essential('twice@example.com'));

    const firstPass = dying.deliver();
    await sending;
    expect(await row(id)).toMatchObject({ status: 'sending', attempts: 1 });
    // Within the lease the row is the first sender's.
    expect(await other.deliver()).toEqual(nothing);
    clock.advance(MAIL_LEASE_MS + 1_000);
    expect(await other.deliver()).toEqual({ ...nothing, sent: 1 });
    expect(survivor.sent[0]!.messageId).toBe(hung.sent[0]!.messageId);
    expect(survivor.sent[0]!.messageId).toBe(`<${id}@books.reshelf.example>`);

    // The first sender's answer comes after all: its claim is gone, so nothing is overwritten.
    answerLate();
    await firstPass;
    expect(await row(id)).toMatchObject({
      status: 'sent',
      attempts: 2,
      provider_message_id: `survivor-1-${id}`,
      lease_token: null,
    });
  });
});

describe('non-essential messages', () => {
  it('carry one-click unsubscribe and an unsubscribe link at the site’s origin; essential ones carry neither', async () => {
    const transport = recorder();
    const mailer = mailerWith(transport);
    const alertId = await mailer.send(priceDrop('sam.reader@example.co.uk', readerId));
    const orderId = await mailer.send(essential('sam.reader@example.co.uk'));
    await mailer.deliver();

    const alert = transport.sent.find((message) => message.id === alertId)!;
    const oneClick = alert.headers['List-Unsubscribe']!;
    expect(oneClick).toMatch(
      /^<https:\/\/books\.reshelf\.example\/api\/unsubscribe\?u=[0-9a-f-]{36}&l=wishlist_alerts&s=[A-Za-z0-9_-]+>$/,
    );
    expect(oneClick).toContain(`u=${readerId}`);
    expect(alert.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const page = oneClick.slice(1, -1).replace('/api/unsubscribe', '/unsubscribe');
    expect(alert.text).toContain(`To stop wishlist price-drop alerts, unsubscribe: ${page}`);
    expect(alert.html).toContain(`href="${page.replaceAll('&', '&#38;')}"`);
    // The footer sits inside the layout, before it closes.
    expect(alert.html.endsWith('</div></body></html>')).toBe(true);
    expect(await row(alertId)).toMatchObject({
      list: 'wishlist_alerts',
      unsubscribe_url: oneClick.slice(1, -1),
    });

    const order = transport.sent.find((message) => message.id === orderId)!;
    expect(order.headers).toEqual({});
    expect(order.text).not.toMatch(/unsubscribe/i);
  });

  it('are held back from someone who left the list (or every list), while essential ones still go', async () => {
    const transport = recorder();
    const mailer = mailerWith(transport);
    const first = await mailer.send(priceDrop('sam.reader@example.co.uk', readerId));
    const link = new URL((await row(first)).unsubscribe_url!);
    await confirmUnsubscribe(db(), secrets, {
      u: link.searchParams.get('u')!,
      l: link.searchParams.get('l')!,
      s: link.searchParams.get('s')!,
    });

    const held = await mailer.send(priceDrop('sam.reader@example.co.uk', readerId));
    const order = await mailer.send(essential('sam.reader@example.co.uk'));
    // A guest address that left every list.
    await db().insertInto('email_suppressions').values({ email: 'guest@example.com', list: 'all' }).execute();
    const guest = await mailer.send(priceDrop('Guest@Example.com', null));

    expect(await mailer.deliver()).toEqual({ ...nothing, sent: 1, suppressed: 3 });
    expect(transport.sent.map((message) => message.id)).toEqual([order]);
    for (const id of [first, held, guest]) expect((await row(id)).status).toBe('suppressed');
  });
});
