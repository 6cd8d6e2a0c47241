/**
 * User-to-user duties (Online Safety Act 2023, issue 35) against real PostgreSQL through the
 * Fastify app: every kind of user content is reportable and its report records its harm; the
 * queue is by harm, fraud first, oldest first within each; the reporter is told the outcome
 * (acted on or not) without the other member's private details; the owner is told why and may
 * appeal once within the window; the one who removed it cannot decide the appeal (the API and the
 * table's check); upholding puts the content back; every step is audited.
 */
import {
  APPEAL_SAME_STAFF,
  HARM_KINDS,
  HARM_LABELS,
  REPORT_REASON_HARM,
  REPORT_REASONS,
  REPORT_REASONS_FOR,
  REPORT_TARGET_KINDS,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing } from '../../testing/catalogue.ts';
import { api, refusal } from '../../testing/client.ts';
import { completedOrder } from '../../testing/orders.ts';
import { writeReview } from '../reviews/reviews.service.ts';

let t: TestApp;
let db: Database;
let mod: TestUser;
let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;
let witness: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  mod = await createUser(db, t.services.identity, 'mod@safety.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@safety.test', { roles: ['admin'] });
  seller = await createUser(db, t.services.identity, 'seller@safety.test');
  buyer = await createUser(db, t.services.identity, 'buyer@safety.test');
  witness = await createUser(db, t.services.identity, 'witness@safety.test');
});

afterAll(async () => {
  await t.close();
});

const as = (user: TestUser) => api(t.app, user.accessToken);

/** A completed order between two new members who can sign in. */
async function orderBetween(label: string) {
  const buyer = await createUser(db, t.services.identity, `buyer-${label}@safety.test`);
  const seller = await createUser(db, t.services.identity, `seller-${label}@safety.test`);
  const order = await completedOrder(t, 1000, { buyer, seller });
  return { ...order, buyer, seller };
}

async function listing(title: string) {
  return createListing(db, { sellerId: seller.id, bookId: await createBook(db, { title }), price: 900 });
}

async function harmOf(reportId: string) {
  return (await db.selectFrom('reports').select('harm').where('id', '=', reportId).executeTakeFirstOrThrow())
    .harm;
}

async function notificationsOf(user: TestUser) {
  return (await as(user).account.notifications.list.query({ limit: 50 })).items;
}

describe('reasons by harm', () => {
  it('every reason belongs to a harm, every kind offers fraud first, and every harm has its label', () => {
    for (const reason of REPORT_REASONS) expect(HARM_KINDS).toContain(REPORT_REASON_HARM[reason]);
    for (const kind of REPORT_TARGET_KINDS) {
      expect(REPORT_REASON_HARM[REPORT_REASONS_FOR[kind][0]!]).toBe('fraud');
      expect(REPORT_REASONS_FOR[kind].at(-1)).toBe('other');
    }
    expect(HARM_KINDS[0]).toBe('fraud');
    expect(Object.keys(HARM_LABELS).sort()).toEqual([...HARM_KINDS].sort());
  });
});

describe('every kind of user content can be reported, with its harm', () => {
  it('a listing, an offer message, a conversation message, a review and a profile', async () => {
    const item = await listing('The Reportable Atlas');
    const onListing = await as(buyer).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'prohibited',
    });
    expect(await harmOf(onListing.id)).toBe('illegal_item');

    const { offerId } = await as(buyer).commerce.offers.member.make.mutate({
      listingId: item.id,
      amountMinor: 500,
      message: 'Pay me by bank transfer instead',
    });
    const onOffer = await as(seller).community.moderation.member.message.mutate({
      offerId,
      reason: 'off_platform_payment',
    });
    expect(await harmOf(onOffer.id)).toBe('fraud');

    const { threadId } = await as(buyer).community.messages.member.startForListing.mutate({
      listingId: item.id,
    });
    await as(buyer).community.messages.member.send.mutate({
      threadId,
      text: 'I know where you live',
      photos: [],
    });
    const sent = await db
      .selectFrom('messages')
      .select('id')
      .where('thread_id', '=', threadId)
      .where('body', '=', 'I know where you live')
      .executeTakeFirstOrThrow();
    const onMessage = await as(seller).community.messages.member.report.mutate({
      messageId: sent.id,
      reason: 'harassment',
    });
    expect(await harmOf(onMessage.id)).toBe('harassment');

    const order = await orderBetween('hate');
    const { id: reviewId } = await writeReview(db, order.buyer.id, {
      orderId: order.orderId,
      stars: 1,
      body: 'Hateful words about a group of people',
    });
    await writeReview(db, order.seller.id, { orderId: order.orderId, stars: 5, body: 'Fine.' });
    const onReview = await as(order.seller).community.reviews.member.report.mutate({
      reviewId,
      reason: 'hate',
    });
    expect(await harmOf(onReview.id)).toBe('hate');

    const onProfile = await as(buyer).community.moderation.member.profile.mutate({
      profileId: seller.id,
      reason: 'terrorism',
      details: 'The bio praises a banned group.',
    });
    expect(await harmOf(onProfile.id)).toBe('terrorism');
    expect(
      await refusal(
        as(seller).community.moderation.member.profile.mutate({ profileId: seller.id, reason: 'spam' }),
      ),
    ).toEqual({ status: 403, message: 'You can’t report your own profile.' });
    expect(
      await refusal(
        as(buyer).community.moderation.member.profile.mutate({
          profileId: seller.id,
          reason: 'prohibited' as never,
        }),
      ),
    ).toMatchObject({ status: 400, message: expect.stringContaining('Choose a reason from the list') });

    const queue = await as(mod).community.moderation.staff.list.query({});
    const kinds = new Set(
      queue
        .filter((r) => [onListing, onOffer, onMessage, onReview, onProfile].some((x) => x.id === r.id))
        .map((r) => r.kind),
    );
    expect([...kinds].sort()).toEqual(['listing', 'message', 'offer_message', 'profile', 'review']);
    expect(queue.find((r) => r.id === onProfile.id)?.profile).toMatchObject({ profileId: seller.id });
  });
});

describe('the staff queue by harm', () => {
  it('lists fraud first, then by HARM_KINDS, oldest first within each, with counts per harm', async () => {
    const item = await listing('The Queue Order Almanac');
    const reporters = await Promise.all(
      ['q1', 'q2', 'q3'].map((name) => createUser(db, t.services.identity, `${name}@safety.test`)),
    );
    const spam = await as(reporters[0]!).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'spam',
    });
    const newFraud = await as(reporters[1]!).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'scam_or_fraud',
    });
    const oldFraud = await as(reporters[2]!).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'scam_or_fraud',
    });
    // The last fraud report came in first: it has waited longest.
    await db
      .updateTable('reports')
      .set({ created_at: sql<Date>`now() - interval '3 hours'` })
      .where('id', '=', oldFraud.id)
      .execute();
    const queue = await as(mod).community.moderation.staff.list.query({});
    const order = queue.map((r) => HARM_KINDS.indexOf(r.harm));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const mine = queue.filter((r) => [spam.id, newFraud.id, oldFraud.id].includes(r.id)).map((r) => r.id);
    expect(mine).toEqual([oldFraud.id, newFraud.id, spam.id]);
    const fraud = queue.filter((r) => r.harm === 'fraud');
    const times = fraud.map((r) => r.createdAt);
    expect(times).toEqual([...times].sort());

    const byHarm = await as(mod).community.moderation.staff.byHarm.query();
    expect(byHarm.map((row) => row.harm)).toEqual([...HARM_KINDS]);
    const fraudRow = byHarm.find((row) => row.harm === 'fraud')!;
    expect(fraudRow.open).toBe(fraud.length);
    expect(fraudRow.oldestAt).toBe(fraud[0]!.createdAt);
    expect(await refusal(as(buyer).community.moderation.staff.byHarm.query())).toMatchObject({ status: 403 });
  });
});

describe('the reporter is told the outcome', () => {
  it('when staff dismiss, and when they act, in the app and by email, with nothing private', async () => {
    const item = await listing('The Outcome Gazetteer');
    const dismissed = await as(witness).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'wrong_details',
    });
    await as(mod).community.moderation.staff.dismiss.mutate({
      reportId: dismissed.id,
      note: 'Seller seller@safety.test confirmed the edition by phone',
    });
    let told = (await notificationsOf(witness)).find((n) => n.kind === 'report_decided');
    expect(told?.title).toBe('We checked the listing you reported');
    expect(told?.body).toContain('doesn’t break our rules');
    expect(told?.body).not.toContain('seller@safety.test');
    let mail = await lastEmailTo(db, witness.email);
    expect(mail).toMatchObject({ template: 'safety.report_decided', subject: told?.title });
    expect(mail?.text_body).not.toContain('confirmed the edition');

    const acted = await as(witness).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'scam_or_fraud',
    });
    await as(mod).community.moderation.staff.act.mutate({
      reportId: acted.id,
      note: 'Seller seller@safety.test took payment outside Reshelf',
    });
    told = (await notificationsOf(witness)).find((n) => n.kind === 'report_decided');
    expect(told?.title).toBe('We removed the listing you reported');
    expect(told?.body).toContain('fraud or scam');
    expect(told?.body).not.toContain('seller@safety.test');
    mail = await lastEmailTo(db, witness.email);
    expect(mail?.text_body).not.toContain('outside Reshelf');
  });
});

describe('removal, appeal and a second member of staff', () => {
  it('tells the owner why, takes one appeal, refuses the same staff member, and restores on upholding', async () => {
    const item = await listing('The Appealable Herbal');
    const report = await as(witness).community.moderation.member.listing.mutate({
      listingId: item.id,
      reason: 'prohibited',
    });
    await as(mod).community.moderation.staff.act.mutate({
      reportId: report.id,
      note: 'Looks like a pesticide manual',
    });

    const notice = (await notificationsOf(seller)).find((n) => n.kind === 'content_removed');
    expect(notice?.title).toBe('We removed your listing “The Appealable Herbal”');
    expect(notice?.body).toContain('The reason: Looks like a pesticide manual');
    expect(notice?.body).toContain('illegal or prohibited item');
    expect(notice?.body).toContain('appeal');
    expect((await lastEmailTo(db, seller.email))?.template).toBe('safety.content_removed');
    const removalId = notice!.link!.split('/').at(-1)!;

    const removal = await as(seller).community.moderation.removals.get.query({ removalId });
    expect(removal).toMatchObject({
      kind: 'listing',
      what: 'your listing “The Appealable Herbal”',
      harm: 'illegal_item',
      reason: 'Looks like a pesticide manual',
      canAppeal: true,
      appeal: null,
    });
    expect(new Date(removal.appealBy).getTime() - new Date(removal.removedAt).getTime()).toBeGreaterThan(
      13 * 86_400_000,
    );
    // Nobody else may read it or appeal it.
    expect(await refusal(as(buyer).community.moderation.removals.get.query({ removalId }))).toMatchObject({
      status: 404,
    });
    expect(
      await refusal(as(seller).community.moderation.removals.appeal.mutate({ removalId, text: 'short' })),
    ).toMatchObject({ status: 400, message: expect.stringContaining('at least 10 characters') });

    const appealed = await as(seller).community.moderation.removals.appeal.mutate({
      removalId,
      text: 'It is a gardening book about herbs, not a pesticide manual.',
    });
    expect(appealed).toMatchObject({ canAppeal: false, appeal: { status: 'open' } });
    expect(
      await refusal(
        as(seller).community.moderation.removals.appeal.mutate({ removalId, text: 'And once more, please.' }),
      ),
    ).toMatchObject({ status: 409 });

    const queue = await as(mod).community.moderation.appeals.list.query({});
    expect(queue.find((a) => a.id === removalId)).toMatchObject({
      actionedByYou: true,
      owner: { id: seller.id },
    });

    // The moderator who removed it may not decide the appeal: the API says so...
    expect(
      await refusal(
        as(mod).community.moderation.appeals.decide.mutate({
          removalId,
          uphold: false,
          note: 'I stand by it',
        }),
      ),
    ).toEqual({ status: 403, message: APPEAL_SAME_STAFF });
    // ...and the table refuses it too.
    await expect(
      db
        .updateTable('moderation_removals')
        .set({ appeal_status: 'rejected', decided_by: mod.id, decided_at: new Date(), decision_note: 'x' })
        .where('id', '=', removalId)
        .execute(),
    ).rejects.toMatchObject({ constraint: 'moderation_removals_appeal_decided_by_another' });

    expect(
      await as(admin).community.moderation.appeals.decide.mutate({
        removalId,
        uphold: true,
        note: 'It is a book about herbs; our mistake.',
      }),
    ).toEqual({ status: 'upheld' });
    const restored = await db
      .selectFrom('listings')
      .select('status')
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(restored.status).toBe('active');
    const decided = (await notificationsOf(seller)).find((n) => n.kind === 'appeal_decided');
    expect(decided?.title).toBe('Your appeal was upheld: your listing “The Appealable Herbal” is back');
    expect(await as(seller).community.moderation.removals.get.query({ removalId })).toMatchObject({
      appeal: { status: 'upheld', decisionNote: 'It is a book about herbs; our mistake.' },
    });
    expect(
      await refusal(
        as(admin).community.moderation.appeals.decide.mutate({ removalId, uphold: false, note: 'again' }),
      ),
    ).toMatchObject({ status: 409 });

    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where((eb) => eb.or([eb('target_id', '=', removalId), eb('target_id', '=', item.id)]))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'listing.remove',
      'removal.record',
      'removal.appeal',
      'listing.restore',
      'removal.appeal_upheld',
    ]);
  });

  it('rejecting tells the member the final reason; a profile and a review come back when upheld', async () => {
    await db
      .updateTable('profiles')
      .set({ bio: 'Praise for a banned group', avatar_url: null })
      .where('id', '=', seller.id)
      .execute();
    const report = await as(witness).community.moderation.member.profile.mutate({
      profileId: seller.id,
      reason: 'terrorism',
    });
    const open = (await as(mod).community.moderation.staff.list.query({ kind: 'profile' })).filter(
      (r) => r.profile?.profileId === seller.id,
    );
    expect(open.length).toBeGreaterThan(0);
    await as(mod).community.moderation.staff.act.mutate({
      reportId: report.id,
      note: 'Support for a proscribed group',
    });
    const bio = async () =>
      (await db.selectFrom('profiles').select('bio').where('id', '=', seller.id).executeTakeFirstOrThrow())
        .bio;
    expect(await bio()).toBeNull();
    const profileRemoval = await db
      .selectFrom('moderation_removals')
      .select('id')
      .where('profile_id', '=', seller.id)
      .executeTakeFirstOrThrow();
    await as(seller).community.moderation.removals.appeal.mutate({
      removalId: profileRemoval.id,
      text: 'It was a quotation from a history book I was selling.',
    });
    await as(admin).community.moderation.appeals.decide.mutate({
      removalId: profileRemoval.id,
      uphold: true,
      note: 'A quotation in context',
    });
    expect(await bio()).toBe('Praise for a banned group');

    const order = await orderBetween('thief');
    const { id: reviewId } = await writeReview(db, order.buyer.id, {
      orderId: order.orderId,
      stars: 1,
      body: 'You are a thief',
    });
    await writeReview(db, order.seller.id, { orderId: order.orderId, stars: 5, body: 'Fine.' });
    const onReview = await as(order.seller).community.reviews.member.report.mutate({
      reviewId,
      reason: 'harassment',
    });
    await as(mod).community.moderation.staff.act.mutate({ reportId: onReview.id, note: 'Personal abuse' });
    const reviewRemoval = await db
      .selectFrom('moderation_removals')
      .select(['id', 'owner_id'])
      .where('review_id', '=', reviewId)
      .executeTakeFirstOrThrow();
    expect(reviewRemoval.owner_id).toBe(order.buyer.id);
    await as(order.buyer).community.moderation.removals.appeal.mutate({
      removalId: reviewRemoval.id,
      text: 'The book never arrived and I was upset.',
    });
    await as(admin).community.moderation.appeals.decide.mutate({
      removalId: reviewRemoval.id,
      uphold: false,
      note: 'Calling a member a thief is personal abuse.',
    });
    const review = await db
      .selectFrom('reviews')
      .select('removed_at')
      .where('id', '=', reviewId)
      .executeTakeFirstOrThrow();
    expect(review.removed_at).not.toBeNull();
    const mail = await lastEmailTo(db, order.buyer.email);
    expect(mail).toMatchObject({ template: 'safety.appeal_decided', subject: 'Your appeal was not upheld' });
    expect(mail?.text_body).toContain('This is our final decision.');
    expect(mail?.text_body).toContain('The reason: Calling a member a thief is personal abuse.');
  });

  it('refuses an appeal after the window', async () => {
    const item = await listing('The Late Appeal Primer');
    await as(mod).community.moderation.listings.setRemoved.mutate({
      listingId: item.id,
      removed: true,
      reason: 'Not a book',
    });
    const removal = await db
      .selectFrom('moderation_removals')
      .select('id')
      .where('listing_id', '=', item.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('moderation_removals')
      .set({
        created_at: sql<Date>`now() - interval '20 days'`,
        appeal_by: sql<Date>`now() - interval '6 days'`,
      })
      .where('id', '=', removal.id)
      .execute();
    expect(
      (await as(seller).community.moderation.removals.get.query({ removalId: removal.id })).canAppeal,
    ).toBe(false);
    expect(
      await refusal(
        as(seller).community.moderation.removals.appeal.mutate({
          removalId: removal.id,
          text: 'Please look again at it.',
        }),
      ),
    ).toEqual({ status: 409, message: 'The time to appeal this removal has passed.' });
  });
});

describe('a charity’s page', () => {
  it('is reportable with its harm; acting takes its words down and tells its owner; the owner appeals; another member of staff upholds and they come back', async () => {
    const owner = await createUser(db, t.services.identity, 'charity-owner@safety.test');
    const teammate = await createUser(db, t.services.identity, 'charity-staff@safety.test');
    const charityId = await createCharity(db, {
      slug: 'safety-trust',
      name: 'Safety Trust',
      ownerId: owner.id,
    });
    await db
      .insertInto('charity_members')
      .values({ charity_id: charityId, user_id: teammate.id, role: 'staff' })
      .execute();
    await db
      .updateTable('charities')
      .set({ description: 'Send your donation to my personal bank account', logo_url: '/logo/safety.png' })
      .where('id', '=', charityId)
      .execute();

    const report = await as(witness).community.moderation.member.charity.mutate({
      charityId,
      reason: 'scam_or_fraud',
      details: 'Asks for money outside Reshelf.',
    });
    expect(await harmOf(report.id)).toBe('fraud');
    // Its own team may not report it; a profile's reasons only; a charity not on Reshelf is not found.
    expect(
      await refusal(as(teammate).community.moderation.member.charity.mutate({ charityId, reason: 'spam' })),
    ).toEqual({ status: 403, message: 'You can’t report your own charity’s page.' });
    expect(
      await refusal(
        as(witness).community.moderation.member.charity.mutate({ charityId, reason: 'prohibited' as never }),
      ),
    ).toMatchObject({ status: 400, message: expect.stringContaining('Choose a reason from the list') });
    const pending = await createCharity(db, {
      slug: 'pending-trust',
      name: 'Pending Trust',
      status: 'pending',
    });
    expect(
      await refusal(
        as(witness).community.moderation.member.charity.mutate({ charityId: pending, reason: 'spam' }),
      ),
    ).toEqual({ status: 404, message: 'We could not find that charity.' });

    const queue = await as(mod).community.moderation.staff.list.query({ kind: 'charity' });
    expect(queue.find((r) => r.id === report.id)).toMatchObject({
      kind: 'charity',
      openOnTarget: 1,
      charity: {
        charityId,
        slug: 'safety-trust',
        name: 'Safety Trust',
        description: 'Send your donation to my personal bank account',
        logoUrl: '/logo/safety.png',
        ownerEmail: owner.email,
      },
    });

    await as(mod).community.moderation.staff.act.mutate({
      reportId: report.id,
      note: 'Asks for payment outside Reshelf',
    });
    const page = async () =>
      db
        .selectFrom('charities')
        .select(['description', 'logo_url', 'name'])
        .where('id', '=', charityId)
        .executeTakeFirstOrThrow();
    expect(await page()).toEqual({ description: null, logo_url: null, name: 'Safety Trust' });
    const removal = await db
      .selectFrom('moderation_removals')
      .select(['id', 'owner_id', 'target_kind', 'harm'])
      .where('charity_id', '=', charityId)
      .executeTakeFirstOrThrow();
    expect(removal).toMatchObject({ owner_id: owner.id, target_kind: 'charity', harm: 'fraud' });
    const told = await lastEmailTo(db, owner.email);
    expect(told).toMatchObject({ template: 'safety.content_removed' });
    expect(told?.subject).toContain('your charity’s page');
    expect(told?.text_body).toContain('The reason: Asks for payment outside Reshelf');
    expect(
      (await notificationsOf(witness)).some((n) => n.title === 'We removed the charity’s page you reported'),
    ).toBe(true);
    expect(await as(owner).community.moderation.removals.get.query({ removalId: removal.id })).toMatchObject({
      kind: 'charity',
      canAppeal: true,
    });

    await as(owner).community.moderation.removals.appeal.mutate({
      removalId: removal.id,
      text: 'That is our treasurer’s account for the charity, and we will change it.',
    });
    expect(
      await refusal(
        as(mod).community.moderation.appeals.decide.mutate({
          removalId: removal.id,
          uphold: true,
          note: 'Fine',
        }),
      ),
    ).toEqual({ status: 403, message: APPEAL_SAME_STAFF });
    // The team rewrote the description meanwhile: it stays; the empty logo is filled back.
    await db
      .updateTable('charities')
      .set({ description: 'Buy our books on Reshelf' })
      .where('id', '=', charityId)
      .execute();
    await as(admin).community.moderation.appeals.decide.mutate({
      removalId: removal.id,
      uphold: true,
      note: 'A charity account, now explained',
    });
    expect(await page()).toEqual({
      description: 'Buy our books on Reshelf',
      logo_url: '/logo/safety.png',
      name: 'Safety Trust',
    });
    const audit = await db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', charityId)
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['charity.hide', 'charity.restore']);
  });
});
