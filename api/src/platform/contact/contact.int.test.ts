import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { WEB } from '../../testing/auth.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { CONTACT_LIMIT, listContactMessages, submitContactMessage } from './contact.service.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const message = {
  name: 'Ruth Okafor',
  email: 'ruth@example.co.uk',
  topic: 'order' as const,
  message: 'My copy of Middlemarch arrived with a torn cover. Could you help?',
};

describe('the contact form', () => {
  it('stores a message from someone not signed in and gives a reference', async () => {
    const response = await api(t.app, {
      headers: { ...WEB, 'user-agent': 'Reader/1' },
    }).platform.contact.submit.mutate(message);
    expect(response).toMatchObject({
      received: true,
      reference: expect.stringMatching(/^RS-MSG-[0-9A-F]{8}$/),
    });
    const stored = await t.database.handle.db.selectFrom('contact_messages').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ name: 'Ruth Okafor', email: 'ruth@example.co.uk', topic: 'order' });
    expect(stored[0]!.sender_key).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it.each([
    [{ ...message, name: '' }, 'name', 'Enter your name'],
    [{ ...message, email: 'not-an-email' }, 'email', 'Enter an email address like name@example.co.uk'],
    [{ ...message, topic: 'complaint' }, 'topic', 'Choose what your message is about'],
    [{ ...message, message: 'Hi' }, 'message', 'Your message needs at least 10 characters'],
    [{ ...message, message: 'x'.repeat(10_000) }, 'message', 'Your message can be at most 5,000 characters'],
  ])('explains what is wrong with a field (%#)', async (input, field, text) => {
    const response = await failure(
      api(t.app, { headers: WEB }).platform.contact.submit.mutate(input as never),
    );
    expect(response.status).toBe(400);
    const { zodError } = response.data as { zodError: { fieldErrors: Record<string, string[]> } };
    expect(zodError.fieldErrors[field]).toEqual([text]);
  });

  it('thanks a bot that fills in the hidden field, and keeps nothing', async () => {
    const db = t.database.handle.db;
    const before = await db.selectFrom('contact_messages').select('id').execute();
    const response = api(t.app, { headers: WEB }).platform.contact.submit.mutate({
      ...message,
      website: 'http://spam.example',
    });
    expect(await statusOf(response)).toBe(200);
    expect((await db.selectFrom('contact_messages').select('id').execute()).length).toBe(before.length);
  });

  it('slows down one sender sending many messages', async () => {
    const db = t.database.handle.db;
    for (let i = 0; i < CONTACT_LIMIT.messages; i++) {
      await submitContactMessage(
        db,
        { ...message, message: `Message number ${i} about an order.` },
        { senderKey: 'flooder-key' },
      );
    }
    await expect(submitContactMessage(db, message, { senderKey: 'flooder-key' })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    });
    await expect(submitContactMessage(db, message, { senderKey: 'someone-else' })).resolves.toMatchObject({
      received: true,
    });
  });
});

describe('staff reading messages (listContactMessages)', () => {
  it('lists newest first, a page at a time, without repeats', async () => {
    const db = t.database.handle.db;
    const first = await listContactMessages(db, { limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.next).not.toBeNull();
    const times = first.items.map((item) => item.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const all: string[] = [...first.items.map((item) => item.id)];
    let next = first.next;
    while (next) {
      const page = await listContactMessages(db, { limit: 3, before: next });
      all.push(...page.items.map((item) => item.id));
      next = page.next;
    }
    const total = await db.selectFrom('contact_messages').select('id').execute();
    expect(all).toHaveLength(total.length);
    expect(new Set(all).size).toBe(total.length);
  });

  it('can show only messages nobody has handled', async () => {
    const db = t.database.handle.db;
    const { items } = await listContactMessages(db, { limit: 100 });
    await db
      .updateTable('contact_messages')
      .set({ handled_at: new Date() })
      .where('id', '=', items[0]!.id)
      .execute();
    const open = await listContactMessages(db, { unhandledOnly: true, limit: 100 });
    expect(open.items.map((item) => item.id)).not.toContain(items[0]!.id);
    expect(open.items).toHaveLength(items.length - 1);
  });
});

describe('platform.contact.list', () => {
  it('lets staff read the messages and nobody else', async () => {
    const { createUser } = await import('../../testing/auth.ts');
    const moderator = await createUser(t.database.handle.db, t.services.identity, 'contact-mod@example.com', {
      roles: ['moderator'],
    });
    const buyer = await createUser(t.database.handle.db, t.services.identity, 'contact-buyer@example.com');
    const asModerator = await api(t.app, moderator.accessToken).platform.contact.list.query();
    expect(asModerator.items.length).toBeGreaterThan(0);
    expect(asModerator.items[0]).toHaveProperty('message');
    expect(await statusOf(api(t.app, buyer.accessToken).platform.contact.list.query())).toBe(403);
    expect(await statusOf(api(t.app).platform.contact.list.query())).toBe(401);
  });
});
