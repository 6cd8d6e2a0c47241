/**
 * Wants (decision 0088) through the real app and database: a member's list, the matcher that
 * tells them when a copy meeting a want is published (once, whoever runs it and however often),
 * the emails at once and in a daily digest with their one-click unsubscribe, and the demand a
 * seller sees.
 */
import { formatPence, NO_CONDITIONS, shownPrice, WANT_MESSAGES, WANT_WORDS } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { matchQueuedWants } from './match.ts';

let t: TestApp;
let reader: TestUser;
let collector: TestUser;
let seller: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  reader = await createUser(db(), t.services.identity, 'reader@wants.test');
  collector = await createUser(db(), t.services.identity, 'collector@wants.test');
  seller = await createUser(db(), t.services.identity, 'seller@wants.test');
});

afterAll(async () => {
  await t.close();
});

const db = () => t.database.handle.db;
const as = (user: TestUser) => api(t.app, user.accessToken);
const deps = () => ({ db: db(), mailer: t.services.mailer, origin: 'https://reshelf.example' });
const match = (now = new Date()) => matchQueuedWants(deps(), now);

let isbnSeed = 100;
/** A valid ISBN-13 nobody has used yet in this file. */
function freshIsbn(): string {
  const body = `978${String(isbnSeed++).padStart(9, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function edition(title: string, authors = ['Bram Stoker'], isbn13: string | null = freshIsbn()) {
  const id = await createBook(db(), { title, authors, isbn13 });
  const book = await db()
    .selectFrom('books')
    .select(['work_id', 'isbn13'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, workId: book.work_id as string, isbn13: book.isbn13 };
}

async function list(
  bookId: string,
  copy: {
    by?: TestUser;
    price?: number;
    firstEdition?: boolean;
    signed?: boolean;
    format?: 'paperback' | 'hardback';
  } = {},
) {
  const made = await createListing(db(), {
    sellerId: (copy.by ?? seller).id,
    bookId,
    price: copy.price ?? 500,
    format: copy.format ?? null,
    status: 'draft',
  });
  // Published as every path publishes: the row turns active (the trigger queues it).
  await db()
    .updateTable('listings')
    .set({
      status: 'active',
      first_edition: copy.firstEdition ?? false,
      signed: copy.signed ?? false,
      published_at: new Date(),
    })
    .where('id', '=', made.id)
    .execute();
  return made;
}

async function told(user: TestUser) {
  return (await as(user).account.notifications.list.query({ limit: 50 })).items.filter(
    (n) => n.kind === 'want_match',
  );
}

async function mailbox(user: TestUser, template: string) {
  return db()
    .selectFrom('email_outbox')
    .select(['subject', 'text_body', 'list', 'unsubscribe_url'])
    .where('to_address', '=', user.email)
    .where('template', '=', template)
    .orderBy('created_at')
    .execute();
}

async function allIn(priceMinor: number) {
  return shownPrice(
    { priceMinor, parcelSize: 'small', format: null, pageCount: null },
    await getCommercialSettings(db()),
  ).allInMinor;
}

describe('a member’s wants', () => {
  it('adds, lists, changes and removes a want; the same want again changes its alerts', async () => {
    const book = await edition('The Lair of the White Worm');
    const me = as(reader);
    const added = await me.community.wants.add.mutate({ target: { kind: 'work', workId: book.workId } });
    expect(added).toMatchObject({
      kind: 'work',
      title: 'The Lair of the White Worm',
      authors: ['Bram Stoker'],
      alerts: 'instant',
      matchesOnSale: 0,
    });
    expect(added.path).toMatch(/^\/book\/the-lair-of-the-white-worm/);
    const again = await me.community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      alerts: 'daily',
    });
    expect(again.id).toBe(added.id);
    expect(again.alerts).toBe('daily');
    // A copy on sale that meets it is counted.
    await list(book.id);
    expect((await me.community.wants.list.query()).find((w) => w.id === added.id)?.matchesOnSale).toBe(1);
    const stricter = await me.community.wants.update.mutate({
      id: added.id,
      conditions: { ...NO_CONDITIONS, firstEdition: true },
    });
    expect(stricter.matchesOnSale).toBe(0);
    expect(await me.community.wants.forBook.query({ workId: book.workId })).toHaveLength(1);
    await me.community.wants.remove.mutate({ id: added.id });
    expect(await me.community.wants.forBook.query({ workId: book.workId })).toEqual([]);
    expect(await refusal(me.community.wants.remove.mutate({ id: added.id }))).toEqual({
      status: 404,
      message: WANT_MESSAGES.notFound,
    });
  });

  it('refuses what is not a want, in words, and strangers', async () => {
    const me = as(reader);
    expect(
      await refusal(me.community.wants.add.mutate({ target: { kind: 'edition', isbn: '9780000000001' } })),
    ).toMatchObject({ status: 400, message: `target.isbn: ${WANT_MESSAGES.badIsbn}` });
    expect(await refusal(me.community.wants.add.mutate({ target: { kind: 'edition' } }))).toMatchObject({
      status: 400,
      message: `target: ${WANT_MESSAGES.noTarget}`,
    });
    const book = await edition('Dracula’s Guest');
    expect(
      await refusal(
        me.community.wants.add.mutate({
          target: { kind: 'edition', bookId: book.id },
          conditions: { maxAllInMinor: 0 },
        }),
      ),
    ).toMatchObject({ status: 400, message: `conditions.maxAllInMinor: ${WANT_MESSAGES.maxPrice}` });
    expect(await refusal(api(t.app, null).community.wants.list.query())).toMatchObject({ status: 401 });
    // Another member's want is not theirs to change.
    const mine = await me.community.wants.add.mutate({ target: { kind: 'edition', bookId: book.id } });
    expect(
      await refusal(as(collector).community.wants.update.mutate({ id: mine.id, alerts: 'off' })),
    ).toMatchObject({ status: 404, message: WANT_MESSAGES.notFound });
    await me.community.wants.remove.mutate({ id: mine.id });
  });
});

describe('changing a want’s conditions (decision 0093)', () => {
  it('saves the new conditions; the copies on sale now that meet them are found, and the next copy published is matched under them', async () => {
    const member = await createUser(db(), t.services.identity, 'edit-conditions@wants.test');
    const book = await edition('The Burial of the Rats');
    await list(book.id, { price: 500 });
    await match(); // on sale before the want: matched against the wants then (none)
    const want = await as(member).community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      conditions: { signed: true },
    });
    expect(want.matchesOnSale).toBe(0);
    const looser = await as(member).community.wants.update.mutate({
      id: want.id,
      conditions: { ...NO_CONDITIONS, maxAllInMinor: await allIn(500), format: null },
    });
    expect(looser).toMatchObject({ id: want.id, alerts: 'instant', matchesOnSale: 1 });
    expect(looser.conditions).toEqual({ ...NO_CONDITIONS, maxAllInMinor: await allIn(500) });
    expect((await as(member).community.wants.list.query()).map((w) => [w.id, w.conditions])).toEqual([
      [want.id, looser.conditions],
    ]);
    // Published from now on: matched under the new conditions (signed no longer asked).
    const copy = await list(book.id, { price: 400 });
    await match();
    expect((await told(member)).map((n) => n.link)).toEqual([`/listing/${copy.slug}`]);
  });

  it('conditions another of the member’s wants has make the two one, with the alerts saved; nothing is told twice', async () => {
    const member = await createUser(db(), t.services.identity, 'edit-same@wants.test');
    const book = await edition('The Judge’s House');
    const signed = await as(member).community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      conditions: { signed: true },
    });
    const copy = await list(book.id, { signed: true, price: 900 });
    await match();
    expect(await told(member)).toHaveLength(1);
    // A second want for any copy, made after that copy was matched.
    const plain = await as(member).community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      alerts: 'daily',
    });
    const kept = await as(member).community.wants.update.mutate({
      id: signed.id,
      conditions: NO_CONDITIONS,
      alerts: 'off',
    });
    expect(kept).toMatchObject({ id: plain.id, alerts: 'off', conditions: NO_CONDITIONS, matchesOnSale: 1 });
    expect((await as(member).community.wants.list.query()).map((w) => w.id)).toEqual([plain.id]);
    expect(
      await db()
        .selectFrom('want_matches')
        .select(['want_id', 'listing_id'])
        .where('listing_id', '=', copy.id)
        .execute(),
    ).toEqual([{ want_id: plain.id, listing_id: copy.id }]);
    // The seller cuts the price (queued again): the member was told of that copy already.
    await db().updateTable('listings').set({ price_minor: 800 }).where('id', '=', copy.id).execute();
    await match();
    expect(await told(member)).toHaveLength(1);
    // An edition want with the same conditions is another target: not made one.
    const other = await as(member).community.wants.add.mutate({
      target: { kind: 'edition', bookId: book.id },
      conditions: { signed: true },
    });
    expect(
      (await as(member).community.wants.update.mutate({ id: other.id, conditions: NO_CONDITIONS })).id,
    ).toBe(other.id);
    expect(await as(member).community.wants.list.query()).toHaveLength(2);
  });

  it('refuses a bad condition in words and leaves the want as it was; a series and an uncatalogued ISBN want change too', async () => {
    const member = await createUser(db(), t.services.identity, 'edit-bad@wants.test');
    const book = await edition('The Squaw');
    const want = await as(member).community.wants.add.mutate({
      target: { kind: 'edition', bookId: book.id },
      conditions: { firstEdition: true },
    });
    expect(
      await refusal(
        as(member).community.wants.update.mutate({
          id: want.id,
          conditions: { ...NO_CONDITIONS, maxAllInMinor: -500 },
        }),
      ),
    ).toEqual({ status: 400, message: `conditions.maxAllInMinor: ${WANT_MESSAGES.maxPrice}` });
    expect(
      await refusal(as(collector).community.wants.update.mutate({ id: want.id, conditions: NO_CONDITIONS })),
    ).toMatchObject({ status: 404, message: WANT_MESSAGES.notFound });
    expect((await as(member).community.wants.list.query())[0]?.conditions).toEqual({
      ...NO_CONDITIONS,
      firstEdition: true,
    });

    const series = await db()
      .insertInto('series')
      .values({ slug: 'edit-tales', name: 'Edit Tales' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rest = await as(member).community.wants.add.mutate({
      target: { kind: 'series', seriesId: series.id },
    });
    const isbn = freshIsbn();
    const waiting = await as(member).community.wants.add.mutate({ target: { kind: 'edition', isbn } });
    expect(
      await as(member).community.wants.update.mutate({
        id: rest.id,
        conditions: { ...NO_CONDITIONS, dustJacket: true, minCondition: 'very_good' },
      }),
    ).toMatchObject({
      id: rest.id,
      kind: 'series',
      conditions: { dustJacket: true, minCondition: 'very_good' },
    });
    expect(
      await as(member).community.wants.update.mutate({
        id: waiting.id,
        conditions: { ...NO_CONDITIONS, noPrintOnDemand: true },
      }),
    ).toMatchObject({ id: waiting.id, isbn13: isbn, bookId: null, conditions: { noPrintOnDemand: true } });
  });
});

describe('matching on publish', () => {
  it('tells a member once that a wanted edition is on sale, however often and concurrently the matcher runs', async () => {
    const book = await edition('Dracula');
    const want = await as(reader).community.wants.add.mutate({
      target: { kind: 'edition', bookId: book.id },
    });
    const copy = await list(book.id, { price: 600 });
    const runs = await Promise.all([match(), match(), match()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await match()).toBe(0);
    const notes = (await told(reader)).filter((n) => n.title === 'Wanted: Dracula is on sale');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.link).toBe(`/listing/${copy.slug}`);
    expect(notes[0]?.body).toContain(formatPence(await allIn(600)));
    const emails = await mailbox(reader, 'wants.alert');
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ subject: 'Wanted: Dracula is on sale', list: 'wants' });
    expect(emails[0]?.text_body).toContain(`Dracula, Bram Stoker: ${formatPence(await allIn(600))}`);
    await as(reader).community.wants.remove.mutate({ id: want.id });
  });

  it('a signed first-edition want ignores an unsigned first edition and takes a signed one', async () => {
    const book = await edition('The Jewel of Seven Stars');
    await as(collector).community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      conditions: { firstEdition: true, signed: true },
    });
    await list(book.id, { firstEdition: true });
    await list(book.id, { signed: true });
    await match();
    expect(await told(collector)).toEqual([]);
    const signedFirst = await list(book.id, { firstEdition: true, signed: true });
    await match();
    const notes = await told(collector);
    expect(notes.map((n) => [n.title, n.link])).toEqual([
      ['Wanted: The Jewel of Seven Stars is on sale', `/listing/${signedFirst.slug}`],
    ]);
    expect(notes[0]?.body).toContain('(First edition · Signed)');
  });

  it('keeps to the most the member would pay all-in, and matches when the price drops below it', async () => {
    const book = await edition('The Snake’s Pass');
    const max = await allIn(800);
    await as(reader).community.wants.add.mutate({
      target: { kind: 'edition', bookId: book.id },
      conditions: { maxAllInMinor: max },
    });
    const dear = await list(book.id, { price: 801 });
    await match();
    expect((await told(reader)).some((n) => n.title.includes('The Snake’s Pass'))).toBe(false);
    // The seller cuts the price: the trigger queues it again.
    await db().updateTable('listings').set({ price_minor: 800 }).where('id', '=', dear.id).execute();
    expect(await match()).toBe(1);
    expect((await told(reader)).filter((n) => n.title.includes('The Snake’s Pass'))).toHaveLength(1);
  });

  it('tells of several copies published together in one notification and one email, in words that agree', async () => {
    const member = await createUser(db(), t.services.identity, 'several@wants.test');
    const one = await edition('Seven Golden Buttons');
    const two = await edition('The Shoulder of Shasta');
    await as(member).community.wants.add.mutate({ target: { kind: 'edition', bookId: one.id } });
    await as(member).community.wants.add.mutate({ target: { kind: 'edition', bookId: two.id } });
    await list(one.id);
    await list(two.id);
    expect(await match()).toBe(2);
    expect((await told(member)).map((n) => [n.title, n.link])).toEqual([
      ['2 books you want are on sale', '/account/wants'],
    ]);
    expect((await mailbox(member, 'wants.alert')).map((m) => m.subject)).toEqual([
      'Wanted: 2 books you want are on sale',
    ]);
  });

  it('never tells a seller of their own copy', async () => {
    const book = await edition('The Mystery of the Sea');
    await as(seller).community.wants.add.mutate({ target: { kind: 'edition', bookId: book.id } });
    await list(book.id, { by: seller });
    expect(await match()).toBe(0);
    expect(await told(seller)).toEqual([]);
  });

  it('a work want matches an edition catalogued after it; an ISBN want waits for its first listing', async () => {
    const first = await edition('The Lady of the Shroud');
    await as(reader).community.wants.add.mutate({ target: { kind: 'work', workId: first.workId } });
    const later = await edition('The Lady of the Shroud');
    expect(later.workId).toBe(first.workId);
    await list(later.id);
    expect(await match()).toBe(1);

    const isbn = freshIsbn();
    const want = await as(reader).community.wants.add.mutate({ target: { kind: 'edition', isbn } });
    expect(want).toMatchObject({ bookId: null, isbn13: isbn, path: null });
    const catalogued = await edition('Under the Sunset', ['Bram Stoker'], isbn);
    await list(catalogued.id);
    expect(await match()).toBe(1);
    expect((await told(reader)).some((n) => n.title === 'Wanted: Under the Sunset is on sale')).toBe(true);
  });

  it('a series want skips the works the member has', async () => {
    const series = await db()
      .insertInto('series')
      .values({ slug: 'stoker-tales', name: 'Stoker Tales' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const had = await edition('Tale One');
    const wanted = await edition('Tale Two');
    await db()
      .updateTable('works')
      .set({ series_id: series.id, series_position: '1' })
      .where('id', '=', had.workId)
      .execute();
    await db()
      .updateTable('works')
      .set({ series_id: series.id, series_position: '2' })
      .where('id', '=', wanted.workId)
      .execute();
    await db().insertInto('member_books').values({ user_id: collector.id, work_id: had.workId }).execute();
    await as(collector).community.wants.add.mutate({ target: { kind: 'series', seriesId: series.id } });
    await list(had.id);
    await list(wanted.id);
    expect(await match()).toBe(1);
    expect((await told(collector)).map((n) => n.title)).toContain('Wanted: Tale Two is on sale');
    expect((await told(collector)).map((n) => n.title)).not.toContain('Wanted: Tale One is on sale');
  });

  it('right after the sell wizard publishes, without waiting for the job', async () => {
    const book = await edition('Famous Impostors');
    await as(collector).community.wants.add.mutate({ target: { kind: 'edition', bookId: book.id } });
    const draft = await createListing(db(), { sellerId: seller.id, bookId: book.id, status: 'draft' });
    await db()
      .updateTable('listings')
      .set({ photos: JSON.stringify(['https://example.test/photo.webp']) })
      .where('id', '=', draft.id)
      .execute();
    await as(seller).selling.listings.publish.mutate({ listingId: draft.id });
    await t.app.background.settled();
    expect((await told(collector)).map((n) => n.title)).toContain('Wanted: Famous Impostors is on sale');
    const queued = await sql<{ n: number }>`select count(*)::int as n from public.want_queue`.execute(db());
    expect(queued.rows[0]?.n).toBe(0);
  });
});

describe('emails', () => {
  it('collects daily wants into one digest a day; instant wants email at once; unsubscribing leaves the list', async () => {
    const member = await createUser(db(), t.services.identity, 'digest@wants.test');
    const one = await edition('Snowbound');
    const two = await edition('The Watter’s Mou’');
    await as(member).community.wants.add.mutate({
      target: { kind: 'edition', bookId: one.id },
      alerts: 'daily',
    });
    await as(member).community.wants.add.mutate({
      target: { kind: 'edition', bookId: two.id },
      alerts: 'daily',
    });
    const start = Date.now();
    await list(one.id);
    expect(await match(new Date(start + 1000))).toBe(2); // one match and the first digest
    await list(two.id);
    expect(await match(new Date(start + 2000))).toBe(1); // in the app now, emailed tomorrow
    expect(await mailbox(member, 'wants.digest')).toHaveLength(1);
    expect(await match(new Date(start + 25 * 3_600_000))).toBe(1);
    const digests = await mailbox(member, 'wants.digest');
    expect(digests.map((d) => d.subject)).toEqual([
      'Books you want: 1 copy on sale today',
      'Books you want: 1 copy on sale today',
    ]);
    expect(digests[1]?.text_body).toContain('The Watter’s Mou’, Bram Stoker');
    expect(await mailbox(member, 'wants.alert')).toEqual([]);

    // One click leaves the list: the next match is in the app, not emailed.
    const oneClick = new URL(digests[1]?.unsubscribe_url as string);
    expect(oneClick.searchParams.get('l')).toBe('wants');
    const unsubscribed = await request(t.app.server)
      .post(`${oneClick.pathname}${oneClick.search}`)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(unsubscribed.status).toBe(200);
    expect((await as(member).account.notifications.emailPreferences.query()).lists.wants).toBe(false);
    const three = await edition('Lord Arthur’s Wanted Book');
    await as(member).community.wants.add.mutate({ target: { kind: 'edition', bookId: three.id } });
    await list(three.id);
    expect(await match(new Date(start + 26 * 3_600_000))).toBe(1);
    expect(await mailbox(member, 'wants.alert')).toEqual([]);
    expect((await told(member)).map((n) => n.title)).toContain(
      'Wanted: Lord Arthur’s Wanted Book is on sale',
    );
  });
});

describe('demand', () => {
  it('counts the readers whose wants cover an edition: its own, its work’s, its series’; never the asker', async () => {
    const book = await edition('The Primrose Path');
    const a = await createUser(db(), t.services.identity, 'demand-a@wants.test');
    const b = await createUser(db(), t.services.identity, 'demand-b@wants.test');
    const demand = () => as(seller).community.wants.demand.query({ bookId: book.id });
    expect(await demand()).toEqual({ readers: 0, words: null });
    await as(a).community.wants.add.mutate({ target: { kind: 'edition', bookId: book.id } });
    await as(a).community.wants.add.mutate({ target: { kind: 'work', workId: book.workId } });
    await as(b).community.wants.add.mutate({
      target: { kind: 'work', workId: book.workId },
      conditions: { signed: true },
    });
    await as(seller).community.wants.add.mutate({ target: { kind: 'work', workId: book.workId } });
    expect(await demand()).toEqual({ readers: 2, words: WANT_WORDS.demand(2) });
    expect(await as(seller).community.wants.demand.query({ isbn: book.isbn13 as string })).toEqual({
      readers: 2,
      words: '2 readers want this',
    });
    // An ISBN not catalogued yet: the wants for it.
    const isbn = freshIsbn();
    await as(a).community.wants.add.mutate({ target: { kind: 'edition', isbn } });
    expect(
      await as(seller).community.wants.demandByIsbn.query({
        isbns: [isbn, book.isbn13 as string, freshIsbn()],
      }),
    ).toEqual(
      expect.arrayContaining([
        { isbn13: isbn, readers: 1, words: '1 reader wants this' },
        { isbn13: book.isbn13, readers: 2, words: '2 readers want this' },
      ]),
    );
  });
});
