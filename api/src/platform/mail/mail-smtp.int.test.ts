/**
 * Issue 18's "Done when": a production-mode BFF (NODE_ENV=production, MAIL=smtp) sends a
 * sign-up's confirmation to a real SMTP server started here, over STARTTLS with a
 * self-signed certificate, the moment the sign-up commits (the outbox's NOTIFY, no job tick);
 * following the emailed link signs the person in. A non-essential message carries RFC 8058
 * one-click unsubscribe: the mail client's POST records the suppression and the sender holds
 * back the next one.
 */
import { CLIENT_HEADER } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createPerson } from '../../testing/catalogue.ts';
import { type ReceivedMail, rawHeader, type SmtpSink, startSmtpSink } from '../../testing/smtp.ts';
import { until } from '../../testing/until.ts';

const ORIGIN = 'https://books.reshelf.example';
const WEB = { [CLIENT_HEADER]: 'web' };

let sink: SmtpSink;
let t: TestApp;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: ORIGIN,
      APP_SECRET: 'a-production-secret-that-is-long-enough-0123456789',
      // Production takes payments through Stripe; nothing here pays.
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_offline',
      STRIPE_WEBHOOK_SECRET: 'whsec_offline',
      EASYPOST_API_KEY: 'EZTKoffline0123',
      EASYPOST_WEBHOOK_SECRET: 'carrier-webhook-offline',
      MAIL: 'smtp',
      // smtp://: STARTTLS, required; the sink's certificate is self-signed.
      SMTP_URL: sink.url,
      MAIL_FROM: 'Reshelf <no-reply@books.reshelf.example>',
    },
  });
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
});

/** Every link in both parts of a message. */
function links(mail: ReceivedMail): string[] {
  const inText = mail.parsed.text?.match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const inHtml = [...String(mail.parsed.html || '').matchAll(/href="([^"]+)"/g)].map((match) =>
    match[1]!.replaceAll('&amp;', '&').replaceAll('&#38;', '&'),
  );
  return [...inText, ...inHtml];
}

async function outboxRow(to: string, template: string) {
  return t.database.handle.db
    .selectFrom('email_outbox')
    .selectAll()
    .where('to_address', '=', to)
    .where('template', '=', template)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

describe('email on a production server', () => {
  it('delivers a sign-up’s confirmation over SMTP at once, and its link signs the person in', async () => {
    const email = 'meg.march@example.com';
    const signUp = await request(t.app.server)
      .post('/trpc/account.auth.signUp')
      .set(WEB)
      .send({ email, password: 'a-long-new-password', displayName: 'Meg March' });
    expect(signUp.status).toBe(200);

    // No job tick and no flush: the insert's NOTIFY woke the sender when the sign-up committed.
    await until(() => sink.received.length === 1, 'the confirmation to reach the SMTP server');
    const mail = sink.received[0]!;
    const row = await outboxRow(email, 'confirm-signup');
    expect(mail).toMatchObject({
      tls: true,
      user: 'postman',
      mailFrom: 'no-reply@books.reshelf.example',
      rcptTo: [email],
    });
    expect(mail.parsed.from?.value).toEqual([{ name: 'Reshelf', address: 'no-reply@books.reshelf.example' }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: email }] });
    expect(mail.parsed.subject).toBe('Confirm your email address');
    expect(mail.parsed.messageId).toBe(row.message_id);
    expect(row.message_id).toBe(`<${row.id}@books.reshelf.example>`);
    // Essential: no unsubscribing from it.
    expect(rawHeader(mail, 'List-Unsubscribe')).toBeUndefined();
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBeUndefined();
    // Both parts, and every link at the one configured origin.
    expect(mail.parsed.text).toContain('Hello Meg March');
    expect(mail.parsed.html).toContain('Confirm my email');
    const found = links(mail);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const link of found) expect(new URL(link).origin).toBe(ORIGIN);

    await until(
      async () => (await outboxRow(email, 'confirm-signup')).status === 'sent',
      'the outbox row to be marked sent',
    );
    expect((await outboxRow(email, 'confirm-signup')).provider_message_id).toBe(row.message_id);

    // Following the link: the token confirms the address and starts a session.
    const token = /\/auth\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(token).toBeDefined();
    const confirmed = await request(t.app.server)
      .post('/trpc/account.auth.confirmEmail')
      .set(WEB)
      .send({ token });
    expect(confirmed.status).toBe(200);
    const cookies = (confirmed.headers['set-cookie'] as unknown as string[]).map(
      (cookie) => cookie.split(';')[0]!,
    );
    expect(cookies.map((cookie) => cookie.split('=')[0])).toEqual(['__Host-reshelf_at', '__Host-reshelf_rt']);
    const me = await request(t.app.server).get('/trpc/account.auth.me').set('cookie', cookies.join('; '));
    expect(me.status).toBe(200);
    expect(me.body.result.data.user).toMatchObject({ email, emailConfirmed: true });
  });

  it('gives a non-essential email one-click unsubscribe, which the sender then honours', async () => {
    const email = 'beth.march@example.com';
    const userId = await createPerson(t.database.handle.db, email, 'Beth');
    const alert = {
      to: email,
      userId,
      subject: 'Price drop: Little Women is now £4.00',
      text: `Little Women is now £4.00 (was £6.00).\n\nSee it: ${ORIGIN}/listing/little-women\n`,
      html: `<!doctype html><html><body><div><p>Little Women is now £4.00.</p><p><a href="${ORIGIN}/listing/little-women">See it</a></p></div></body></html>`,
      template: 'wishlist_alerts.price_drop',
    };
    await t.services.mailer.send(alert);
    await until(() => sink.received.some((mail) => mail.rcptTo.includes(email)), 'the alert to arrive');
    const mail = sink.received.find((received) => received.rcptTo.includes(email))!;
    const oneClick = rawHeader(mail, 'List-Unsubscribe')!;
    expect(oneClick).toMatch(
      /^<https:\/\/books\.reshelf\.example\/api\/unsubscribe\?u=[0-9a-f-]{36}&l=wishlist_alerts&s=[A-Za-z0-9_-]+>$/,
    );
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.text).toMatch(
      /To stop wishlist price-drop alerts, unsubscribe: https:\/\/books\.reshelf\.example\/unsubscribe\?/,
    );
    for (const link of links(mail)) expect(new URL(link).origin).toBe(ORIGIN);

    // Opening the address shows the page, which asks first; nothing is recorded by a GET.
    const path = new URL(oneClick.slice(1, -1)).pathname + new URL(oneClick.slice(1, -1)).search;
    const opened = await request(t.app.server).get(path);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe(path.replace('/api/unsubscribe', '/unsubscribe'));
    const suppressions = () =>
      t.database.handle.db
        .selectFrom('email_suppressions')
        .selectAll()
        .where('user_id', '=', userId)
        .execute();
    expect(await suppressions()).toHaveLength(0);

    // The mail client's POST (RFC 8058): no cookie, no client header, a form body.
    const tampered = await request(t.app.server)
      .post(path.replace(/s=[^&]+/, 's=forged'))
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(tampered.status).toBe(400);
    expect(await suppressions()).toHaveLength(0);
    const clicked = await request(t.app.server).post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(clicked.status).toBe(200);
    expect(clicked.text).toBe('Unsubscribed b•••••••••@example.com from wishlist price-drop alerts.');
    expect(await suppressions()).toMatchObject([{ list: 'wishlist_alerts', source: 'link' }]);

    // The next alert is held back; an essential email still goes.
    const before = sink.received.length;
    const held = await t.services.mailer.send(alert);
    const order = await t.services.mailer.send({
      to: email,
      userId,
      subject: 'Order confirmed: Little Women',
      text: `Thanks for your order.\n\nView your order: ${ORIGIN}/account/orders\n`,
      html: '<p>Thanks for your order.</p>',
      template: 'order.placed',
    });
    await t.services.mailer.deliver();
    await t.app.mail.idle();
    const status = async (id: string) =>
      (
        await t.database.handle.db
          .selectFrom('email_outbox')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await status(held)).toBe('suppressed');
    expect(await status(order)).toBe('sent');
    expect(sink.received.slice(before).map((received) => received.parsed.subject)).toEqual([
      'Order confirmed: Little Women',
    ]);
  });
});
