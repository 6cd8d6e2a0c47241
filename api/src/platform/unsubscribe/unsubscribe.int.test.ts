import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecrets } from '../../secrets.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { WEB } from '../../testing/auth.ts';
import { createPerson } from '../../testing/catalogue.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { unsubscribePath } from './unsubscribe.service.ts';

let t: TestApp;
let userId: string;
// The same secret createTestApp gives the app.
const secrets = createSecrets('test-secret-that-is-long-enough-for-hkdf-0123456789');

function linkInput(path: string) {
  const params = new URL(path, 'http://x').searchParams;
  return { u: params.get('u')!, l: params.get('l')!, s: params.get('s')! };
}

beforeAll(async () => {
  t = await createTestApp();
  userId = await createPerson(t.database.handle.db, 'sam.reader@example.co.uk');
});

afterAll(async () => {
  await t?.close();
});

describe('unsubscribe links', () => {
  it('work without signing in, record the suppression once, and say so', async () => {
    const input = linkInput(unsubscribePath(secrets, userId, 'newsletter'));
    const check = await api(t.app).platform.unsubscribe.check.query(input);
    expect(check).toEqual({
      list: 'newsletter',
      listLabel: 'the Reshelf newsletter',
      recipient: 's•••••••••@example.co.uk',
      unsubscribed: false,
    });
    for (let i = 0; i < 2; i++) {
      const confirm = await api(t.app, { headers: WEB }).platform.unsubscribe.confirm.mutate(input);
      expect(confirm.unsubscribed).toBe(true);
    }
    const rows = await t.database.handle.db.selectFrom('email_suppressions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ user_id: userId, list: 'newsletter', source: 'link' });
    expect((await api(t.app).platform.unsubscribe.check.query(input)).unsubscribed).toBe(true);
  });

  it('work for an email address without an account', async () => {
    const input = linkInput(unsubscribePath(secrets, 'guest@example.com', 'all'));
    const confirm = await api(t.app, { headers: WEB }).platform.unsubscribe.confirm.mutate(input);
    expect(confirm).toMatchObject({
      list: 'all',
      recipient: 'g••••@example.com',
      unsubscribed: true,
    });
    // "all" covers every list.
    const other = linkInput(unsubscribePath(secrets, 'guest@example.com', 'recommendations'));
    expect((await api(t.app).platform.unsubscribe.check.query(other)).unsubscribed).toBe(true);
  });

  it('refuse a tampered link with a clear message and record nothing', async () => {
    const good = linkInput(unsubscribePath(secrets, userId, 'recommendations'));
    const tampered = [
      { ...good, u: '00000000-0000-4000-8000-000000000000' },
      { ...good, l: 'wishlist_alerts' },
      { ...good, s: `${good.s.slice(0, -2)}xx` },
      { ...good, s: 'short' },
      linkInput(
        unsubscribePath(createSecrets('another-secret-entirely-0123456789abcdef'), userId, 'recommendations'),
      ),
    ];
    for (const input of tampered) {
      for (const response of [
        await failure(api(t.app).platform.unsubscribe.check.query(input)),
        await failure(api(t.app, { headers: WEB }).platform.unsubscribe.confirm.mutate(input)),
      ]) {
        expect(response.status).toBe(400);
        expect(response.message).toMatch(/This unsubscribe link isn’t valid/);
        // The account has no email settings to send anyone to.
        expect(response.message).not.toMatch(/email settings/);
      }
    }
    const rows = await t.database.handle.db
      .selectFrom('email_suppressions')
      .select('list')
      .where('list', 'in', ['recommendations', 'wishlist_alerts'])
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('answer an incomplete link with a 400, not a 500', async () => {
    expect(await statusOf(api(t.app).platform.unsubscribe.check.query({ u: userId } as never))).toBe(400);
    expect(
      await statusOf(
        api(t.app).platform.unsubscribe.check.query({ u: 'x'.repeat(10_000), l: 'all', s: 'abc' }),
      ),
    ).toBe(400);
  });
});

describe('one-click unsubscribe (RFC 8058)', () => {
  const oneClick = (path: string) => path.replace('/unsubscribe?', '/api/unsubscribe?');

  it('records the suppression from a mail client’s POST, urlencoded or multipart, without our header', async () => {
    const other = await createPerson(t.database.handle.db, 'amy.reader@example.co.uk');
    const path = oneClick(unsubscribePath(secrets, other, 'recommendations'));
    const multipart = await request(t.app.server).post(path).field('List-Unsubscribe', 'One-Click');
    expect(multipart.status).toBe(200);
    expect(multipart.text).toBe('Unsubscribed a•••••••••@example.co.uk from book recommendations.');
    const again = await request(t.app.server).post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(again.status).toBe(200);
    const rows = await t.database.handle.db
      .selectFrom('email_suppressions')
      .selectAll()
      .where('user_id', '=', other)
      .execute();
    expect(rows).toMatchObject([{ list: 'recommendations', source: 'link' }]);
  });

  it('refuses an incomplete or altered link, recording nothing', async () => {
    const other = await createPerson(t.database.handle.db, 'jo.reader@example.co.uk');
    const path = oneClick(unsubscribePath(secrets, other, 'newsletter'));
    const incomplete = await request(t.app.server)
      .post(path.replace(/&s=[^&]+/, ''))
      .type('form')
      .send('');
    expect(incomplete.status).toBe(400);
    expect(incomplete.text).toBe('This unsubscribe link is incomplete: use the whole link from the email.');
    const altered = await request(t.app.server)
      .post(path.replace('l=newsletter', 'l=recommendations'))
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(altered.status).toBe(400);
    expect(altered.text).toMatch(/This unsubscribe link isn’t valid/);
    expect(
      await t.database.handle.db
        .selectFrom('email_suppressions')
        .selectAll()
        .where('user_id', '=', other)
        .execute(),
    ).toEqual([]);
  });
});
