/**
 * All-in prices (decision 0071) through the real app and database, for what a browser does not
 * show: every price the API sends a buyer for a listing, and every email and in-app notification
 * that states one, equals what checkout charges for that one book less its postage. The browser
 * surfaces are tests/e2e/all-in-prices.e2e.test.ts.
 *
 * "What checkout charges" is asked of checkout (`commerce.checkout.quote`). The buyer here has
 * no order yet, so checkout offers WELCOME20: it is added back (the figure is for no discount),
 * and the quote's own lines must say so. Every surface is counted (it must hold the listings),
 * then staff change the protection rule and every surface is read again.
 */
import { formatPence, type ListingCard, type Quote, SHOWN_PRICE_WORDS } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
let buyer: TestUser;
let charitySlug: string;
const listings: { label: string; id: string; slug: string; title: string }[] = [];

const as = (user: TestUser | null) => api(t.app, user?.accessToken ?? null);

/** Checkout's charge for the one book, with no discount, less its postage; and its cheapest postage. */
async function charged(listingId: string): Promise<{ allInMinor: number; postageMinor: number }> {
  const quote: Quote = await as(buyer).commerce.checkout.quote.query({ listingId });
  expect(quote.discountCode === null || quote.discountCode === 'WELCOME20').toBe(true);
  return {
    // money-ok: the test reads checkout's own lines: the total, its discount added back, less postage.
    allInMinor: quote.totalMinor + quote.discountMinor - quote.postageMinor,
    // "+ postage from": the cheapest delivery checkout offers for the book alone (decision 0083).
    postageMinor: Math.min(...quote.delivery.options.map((option) => option.postageMinor)),
  };
}

async function setRule(rule: { fixedMinor: number; percent: number }): Promise<void> {
  const changed = await t.database.handle.db
    .updateTable('settings')
    .set({ value: JSON.stringify(rule) })
    .where('key', '=', 'buyer_protection')
    .executeTakeFirst();
  expect(changed.numUpdatedRows).toBe(1n);
}

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@shown-price.test');
  buyer = await createUser(db, t.services.identity, 'buyer@shown-price.test');
  const volunteer = await createUser(db, t.services.identity, 'hospice@shown-price.test');
  charitySlug = 'shown-price-hospice';
  const charityId = await createCharity(db, {
    slug: charitySlug,
    name: 'Shown Price Hospice',
    ownerId: volunteer.id,
  });
  const books = [
    { label: 'cheap paperback', title: 'Allin Paperback', price: 399, parcelSize: 'small' as const },
    { label: 'pricier hardback', title: 'Allin Hardback', price: 1250, parcelSize: 'medium' as const },
    { label: 'charity book', title: 'Allin Charity', price: 650, parcelSize: 'large' as const, charityId },
  ];
  for (const { label, title, price, parcelSize, charityId: charity } of books) {
    const bookId = await createBook(db, { title, authors: ['Ann Allin'], category: 'fiction' });
    const listing = await createListing(db, {
      sellerId: charity ? volunteer.id : seller.id,
      bookId,
      price,
      parcelSize,
      charityId: charity ?? null,
    });
    listings.push({ label, title, ...listing });
  }
});

afterAll(async () => {
  await t.close();
});

/** Every card the public reads return for these listings, by surface: each must hold them all. */
async function cardsBySurface(): Promise<Record<string, ListingCard[]>> {
  const visitor = as(null);
  const ours = (cards: ListingCard[]) => cards.filter((card) => listings.some((l) => l.id === card.id));
  const charityOnly = ours((await visitor.catalogue.listings.browse.query({ charity: charitySlug })).items);
  return {
    browse: ours((await visitor.catalogue.listings.browse.query({ sort: 'newest' })).items),
    search: ours((await visitor.catalogue.listings.search.query({ q: 'Allin' })).items),
    'seller page': ours((await visitor.catalogue.listings.browse.query({ seller: seller.id })).items),
    'charity page': charityOnly,
    'recently added': ours(await visitor.catalogue.discovery.public.recent.query({ limit: 12 })),
    'similar listings': [
      ...ours(await visitor.catalogue.listings.similar.query({ slug: listings[0]!.slug })),
      ...ours(await visitor.catalogue.listings.similar.query({ slug: listings[1]!.slug })),
    ],
  };
}

async function checkCards(rule: string): Promise<Map<string, number>> {
  const shown = new Map<string, number>();
  const surfaces = await cardsBySurface();
  for (const [surface, cards] of Object.entries(surfaces)) {
    const expected = { 'charity page': 1, 'seller page': 2, 'similar listings': 2 }[surface] ?? 3;
    expect(cards.length, `${rule}: ${surface} holds the listings`).toBeGreaterThanOrEqual(expected);
    for (const card of cards) {
      const checkout = await charged(card.id);
      expect(card.allInMinor, `${rule}: ${surface}, ${card.title}`).toBe(checkout.allInMinor);
      expect(card.postageFromMinor, `${rule}: ${surface}, ${card.title} postage`).toBe(checkout.postageMinor);
      shown.set(card.id, card.allInMinor);
    }
  }
  for (const listing of listings) {
    const detail = await as(null).catalogue.listings.bySlug.query({ slug: listing.slug });
    const checkout = await charged(listing.id);
    expect(detail.price.allInMinor, `${rule}: ${listing.label}'s listing page`).toBe(checkout.allInMinor);
    expect(detail.price.postageMinor).toBe(checkout.postageMinor);
  }
  return shown;
}

describe('every price the API states for a listing is what checkout charges (decision 0071)', () => {
  it('on cards, the listing page, the feed, messages, price-drop and saved-search alerts, before and after staff change the rule', async () => {
    const [paperback, hardback] = listings as [(typeof listings)[0], (typeof listings)[0]];
    const before = await checkCards('starting rule');
    // £3.99 + 70p + 20p: the starting rule's figure, so the checks above are on a known number.
    expect(before.get(paperback.id)).toBe(489);

    // The buyer follows the seller, wishes for the paperback, saves a search, and messages them.
    const me = as(buyer);
    await me.community.social.follows.set.mutate({
      target: { kind: 'seller', sellerId: seller.id },
      following: true,
    });
    await me.catalogue.wishlist.toggle.mutate({ listingId: paperback.id, wished: true });
    const saved = await me.community.social.savedSearches.save.mutate({
      query: 'q=allin',
      alerts: 'instant',
    });
    const conversation = await me.community.messages.member.startForListing.mutate({
      listingId: hardback.id,
    });
    await me.community.messages.member.send.mutate({
      threadId: conversation.threadId,
      text: 'Is it still for sale?',
    });

    // Staff change the rule; then the seller drops the paperback's price and lists a new book.
    await setRule({ fixedMinor: 95, percent: 8 });
    const after = await checkCards('changed rule');
    expect(after.get(paperback.id), 'the shown price followed the rule').not.toBe(before.get(paperback.id));
    await as(seller).selling.listings.update.mutate({ listingId: paperback.id, priceMinor: 349 });
    const dropped = await charged(paperback.id);
    const fresh = await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'Allin Newcomer', authors: ['Ann Allin'] }),
      price: 725,
      parcelSize: 'small',
      publishedAt: new Date(),
    });
    const freshCharge = await charged(fresh.id);
    const counts: Record<string, number> = {};

    // The feed: the drop, and the cards.
    const feed = await me.community.social.feed.query({ limit: 50 });
    const drops = feed.items.filter(
      (item) => item.kind === 'price_drop' && item.listing?.id === paperback.id,
    );
    for (const item of drops) expect(item.priceDrop?.nowAllInMinor).toBe(dropped.allInMinor);
    const feedCards = feed.items.flatMap((item) => (item.listing ? [item.listing] : []));
    for (const card of feedCards) expect(card.allInMinor).toBe((await charged(card.id)).allInMinor);
    counts['feed price drops'] = drops.length;
    counts['feed cards'] = feedCards.length;

    // Messages: the conversation's book, as the buyer sees it.
    const threads = await me.community.messages.member.threads.query();
    const thread = threads.find((row) => row.listing.id === hardback.id);
    expect(thread?.listing.allInMinor).toBe((await charged(hardback.id)).allInMinor);
    counts['message threads'] = thread ? 1 : 0;

    // The wishlist price drop: in the app, and emailed.
    const notes = (await me.account.notifications.list.query({ limit: 50 })).items;
    const dropNotes = notes.filter((note) => note.kind === 'wishlist_price_drop');
    for (const note of dropNotes) {
      expect(note.body).toContain(`is now ${formatPence(dropped.allInMinor)}`);
      expect(note.body).toContain(SHOWN_PRICE_WORDS.postageFrom(dropped.postageMinor));
    }
    counts['price-drop notifications'] = dropNotes.length;
    await runJob(
      {
        db,
        payments: t.services.payments,
        mailer: t.services.mailer,
        storage: t.services.storage,
        origin: t.config.siteOrigin,
      },
      'notifications.email',
    );
    const outbox = (template: string) =>
      db
        .selectFrom('email_outbox')
        .select(['subject', 'text_body'])
        .where('to_address', '=', buyer.email)
        .where('template', '=', template)
        .execute();
    const dropMails = await outbox('wishlist_alerts.price_drop');
    for (const mail of dropMails) {
      expect(mail.subject).toContain(`is now ${formatPence(dropped.allInMinor)}`);
      expect(mail.text_body).toContain(SHOWN_PRICE_WORDS.postageFrom(dropped.postageMinor));
    }
    counts['price-drop emails'] = dropMails.length;

    // The saved search's alert for the new listing: in the app, and emailed at once.
    await runJob(
      {
        db,
        payments: t.services.payments,
        mailer: t.services.mailer,
        storage: t.services.storage,
        origin: t.config.siteOrigin,
      },
      'saved_searches.alerts',
    );
    const matchLine = SHOWN_PRICE_WORDS.inline({
      allInMinor: freshCharge.allInMinor,
      postageFromMinor: freshCharge.postageMinor,
    });
    const matchNotes = (await me.account.notifications.list.query({ limit: 50 })).items.filter(
      (note) => note.kind === 'saved_search_match' && note.body.includes('Allin Newcomer'),
    );
    for (const note of matchNotes) expect(note.body).toContain(matchLine);
    counts['saved-search notifications'] = matchNotes.length;
    const matchMails = (await outbox('saved-search.alert')).filter((mail) =>
      mail.text_body.includes('Allin Newcomer'),
    );
    for (const mail of matchMails) expect(mail.text_body).toContain(matchLine);
    counts['saved-search emails'] = matchMails.length;

    for (const [surface, count] of Object.entries(counts)) {
      expect(count, `${surface} were found`).toBeGreaterThan(0);
    }
    expect(saved.id).toBeTruthy();

    // The sitemap carries no prices (nothing to keep equal), but it does carry the listings.
    const sitemap = await request(t.app.server).get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain(`/listing/${paperback.slug}</loc>`);
    expect(sitemap.text).not.toMatch(/£|<[^>]*price/i);
  });
});
