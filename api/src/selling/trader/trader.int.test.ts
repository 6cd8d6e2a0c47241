/**
 * Selling as a trade (decision 0073), against real PostgreSQL through the app: a member declares
 * they are a business seller (clear refusals for a PO box, a company without its number, a bad
 * VAT number), and from then on their listing and its checkout name them as the trader with the
 * cancellation rights; a charity's listing names the charity; a private seller's names nobody.
 */
import { CANCELLATION_RULES, REPORTING_ASK_AT_MINOR } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { paidOrder } from '../../testing/orders.ts';

let t: TestApp;
let db: Database;
let seller: TestUser;
let buyer: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  seller = await createUser(db, t.services.identity, 'seller@traders.test');
  buyer = await createUser(db, t.services.identity, 'buyer@traders.test');
});

afterAll(async () => {
  await t?.close();
});

const business = {
  tradingName: 'Kennet Rare Books',
  isCompany: true,
  companyNumber: '1234567',
  vatNumber: 'gb 123 4567 89',
  addressLine1: '4 Wharf Street',
  town: 'Newbury',
  postcode: 'rg14 5ap',
  contactEmail: 'Shop@Kennet.test',
};

describe('declaring a business seller', () => {
  it('refuses a PO box, a company without its number and a bad VAT number, saying what is wrong', async () => {
    const asSeller = api(t.app, seller.accessToken);
    const poBox = await failure(
      asSeller.selling.trader.declareBusiness.mutate({ ...business, addressLine1: 'PO Box 12' }),
    );
    expect(poBox.status).toBe(400);
    expect(poBox.message).toContain(
      'Give the address where you trade from, not a PO box or Freepost address',
    );
    const noNumber = await failure(
      asSeller.selling.trader.declareBusiness.mutate({ ...business, companyNumber: '' }),
    );
    expect(noNumber.message).toContain('Enter your company number (a company must give it)');
    const badVat = await failure(
      asSeller.selling.trader.declareBusiness.mutate({ ...business, vatNumber: '12' }),
    );
    expect(badVat.message).toContain('Enter a UK VAT number');
    // Nothing half-written.
    expect(await asSeller.selling.trader.status.query({})).toMatchObject({
      answer: 'unanswered',
      business: null,
    });
  });

  it('shows the trader on the listing and at checkout; a private seller says so; a charity is a trader', async () => {
    const asSeller = api(t.app, seller.accessToken);
    const bookId = await createBook(db, { title: 'The Wind in the Willows' });
    const own = await createListing(db, { sellerId: seller.id, bookId, price: 900 });
    const anyone = api(t.app);
    // Before: a private seller, no trader, no change-of-mind returns.
    const before = await anyone.catalogue.listings.bySlug.query({ slug: own.slug });
    expect(before.trader).toBeNull();
    expect(before.returns).toBeNull();

    const status = await asSeller.selling.trader.declareBusiness.mutate(business);
    expect(status).toMatchObject({
      answer: 'business',
      business: {
        tradingName: 'Kennet Rare Books',
        companyNumber: '01234567',
        vatNumber: 'GB123456789',
        postcode: 'RG14 5AP',
        contactEmail: 'shop@kennet.test',
      },
    });
    const after = await anyone.catalogue.listings.bySlug.query({ slug: own.slug });
    expect(after.trader).toEqual({
      kind: 'business',
      name: 'Kennet Rare Books',
      address: '4 Wharf Street, Newbury, RG14 5AP',
      registration: { label: 'Company number', number: '01234567' },
      vatNumber: 'GB123456789',
      email: 'shop@kennet.test',
    });
    expect(after.returns).toEqual({ days: CANCELLATION_RULES.cancelDays, postageBy: 'buyer' });
    const quote = await api(t.app, buyer.accessToken).commerce.checkout.quote.query({ listingId: own.id });
    expect(quote.trader).toEqual(after.trader);

    // Saying they sell privately takes the trader off their listings.
    expect(await asSeller.selling.trader.declarePrivate.mutate({})).toMatchObject({
      answer: 'private',
      business: null,
    });
    expect((await anyone.catalogue.listings.bySlug.query({ slug: own.slug })).trader).toBeNull();

    const owner = await createUser(db, t.services.identity, 'owner@traders.test');
    const charityId = await createCharity(db, {
      slug: 'traders-charity',
      name: 'Oxfam Books',
      registeredNumber: '202918',
      ownerId: owner.id,
    });
    await db
      .updateTable('charities')
      .set({
        address_line1: '17 Broad Street',
        town: 'Oxford',
        postcode: 'OX1 3AS',
        contact_email: 'books@oxfam.test',
      })
      .where('id', '=', charityId)
      .execute();
    const charityListing = await createListing(db, { sellerId: owner.id, bookId, charityId });
    expect((await anyone.catalogue.listings.bySlug.query({ slug: charityListing.slug })).trader).toEqual({
      kind: 'charity',
      name: 'Oxfam Books',
      address: '17 Broad Street, Oxford, OX1 3AS',
      registration: { label: 'Registered charity number', number: '202918' },
      vatNumber: null,
      email: 'books@oxfam.test',
    });
  });

  it('asks a member who sells often to say whether they trade, and never switches them', async () => {
    const member = await createUser(db, t.services.identity, 'often@traders.test');
    const asMember = api(t.app, member.accessToken);
    expect(await asMember.selling.trader.status.query({})).toMatchObject({
      answer: 'unanswered',
      prompt: false,
    });
    // One sale worth more than the point at which platform reporting asks for details.
    await paidOrder(t, REPORTING_ASK_AT_MINOR + 10_000, 'A first folio', {
      seller: { id: member.id, email: member.email },
    });
    expect(await asMember.selling.trader.status.query({})).toMatchObject({
      answer: 'unanswered',
      prompt: true,
      business: null,
    });
    // Their listings are still a private seller's until they say otherwise.
    const [listing] = await db
      .selectFrom('listings')
      .select('slug')
      .where('seller_id', '=', member.id)
      .execute();
    expect((await api(t.app).catalogue.listings.bySlug.query({ slug: listing!.slug! })).trader).toBeNull();
    expect(await asMember.selling.trader.declarePrivate.mutate({})).toMatchObject({
      answer: 'private',
      prompt: false,
    });
  });
});
