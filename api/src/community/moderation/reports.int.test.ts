/**
 * Reports against real PostgreSQL: members report a listing or a message sent to them (not
 * their own, once while open, rate-limited); staff, moderators too, list the queue, dismiss
 * with a note, and act: a listing is removed and every open report on it closes, a message is
 * hidden from both people in the thread. Every staff change is in the audit log.
 */
import { REPORT_REASON_MESSAGE } from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { reserve } from '../../http/rate-limit.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing } from '../../testing/catalogue.ts';
import { api, refusal, statusOf } from '../../testing/client.ts';
import { REPORT_RATE } from './report-rules.ts';

let t: TestApp;
let db: Database;
let moderator: TestUser;
let admin: TestUser;
let seller: TestUser;
let buyer: TestUser;
let other: TestUser;
let fake: { id: string; slug: string };
let spare: { id: string; slug: string };
let offerId: string;
let counterId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  moderator = await createUser(db, t.services.identity, 'moderator@reports.test', { roles: ['moderator'] });
  admin = await createUser(db, t.services.identity, 'admin@reports.test', { roles: ['admin'] });
  seller = await createUser(db, t.services.identity, 'seller@reports.test');
  buyer = await createUser(db, t.services.identity, 'buyer@reports.test');
  other = await createUser(db, t.services.identity, 'other@reports.test');
  fake = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: 'A Very Suspicious Atlas' }),
    price: 2000,
  });
  spare = await createListing(db, {
    sellerId: seller.id,
    bookId: await createBook(db, { title: 'An Honest Almanac' }),
    price: 1000,
  });
  // A thread with a message each way: the buyer's offer, the seller's rude counter.
  offerId = (
    await api(t.app, buyer.accessToken).commerce.offers.member.make.mutate({
      listingId: spare.id,
      amountMinor: 700,
      message: 'Would you take £7?',
    })
  ).offerId;
  counterId = (
    await api(t.app, seller.accessToken).commerce.offers.member.counter.mutate({
      offerId,
      amountMinor: 900,
      message: 'Go away, you cheapskate',
    })
  ).offerId;
});

afterAll(async () => {
  await t.close();
});

async function auditOf(action: string) {
  return db
    .selectFrom('audit_log')
    .select(['actor_email', 'target_type', 'target_id', 'details'])
    .where('action', '=', action)
    .orderBy('id')
    .execute();
}

async function reportRow(id: string) {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('who may call', () => {
  it('members report when signed in; only staff see and work the queue', async () => {
    expect(
      await statusOf(
        api(t.app, { headers: WEB }).community.moderation.member.listing.mutate({
          listingId: fake.id,
          reason: 'prohibited',
        }),
      ),
    ).toBe(401);
    const member = api(t.app, buyer.accessToken);
    expect(await statusOf(member.community.moderation.staff.list.query({}))).toBe(403);
    expect(await statusOf(member.community.moderation.staff.openCount.query())).toBe(403);
    const some = '00000000-0000-4000-8000-000000000000';
    expect(
      await statusOf(member.community.moderation.staff.dismiss.mutate({ reportId: some, note: 'Nope' })),
    ).toBe(403);
    expect(
      await statusOf(member.community.moderation.staff.act.mutate({ reportId: some, note: 'Nope' })),
    ).toBe(403);
    expect(await statusOf(api(t.app).community.moderation.staff.list.query({}))).toBe(401);
    expect(await statusOf(api(t.app, moderator.accessToken).community.moderation.staff.list.query({}))).toBe(
      200,
    );
    expect(await statusOf(api(t.app, admin.accessToken).community.moderation.staff.list.query({}))).toBe(200);
  });
});

describe('reporting', () => {
  it('checks the reason and details', async () => {
    const as = api(t.app, buyer.accessToken);
    expect(
      await refusal(
        as.community.moderation.member.listing.mutate({ listingId: fake.id, reason: 'boring' as never }),
      ),
    ).toEqual({
      status: 400,
      message: `reason: ${REPORT_REASON_MESSAGE}`,
    });
    // Each kind of thing has its own reasons: a message is no "prohibited item", a
    // listing no "harassment".
    expect(
      await refusal(
        as.community.moderation.member.message.mutate({ offerId: counterId, reason: 'prohibited' as never }),
      ),
    ).toEqual({ status: 400, message: `reason: ${REPORT_REASON_MESSAGE}` });
    expect(
      await refusal(
        as.community.moderation.member.listing.mutate({ listingId: fake.id, reason: 'harassment' as never }),
      ),
    ).toEqual({ status: 400, message: `reason: ${REPORT_REASON_MESSAGE}` });
    expect(
      await refusal(
        as.community.moderation.member.listing.mutate({
          listingId: fake.id,
          reason: 'other',
          details: 'x'.repeat(1001),
        }),
      ),
    ).toEqual({ status: 400, message: 'details: Keep the details to 1,000 characters' });
  });

  it('refuses your own listing and your own message, and messages not sent to you', async () => {
    expect(
      await refusal(
        api(t.app, seller.accessToken).community.moderation.member.listing.mutate({
          listingId: fake.id,
          reason: 'prohibited',
        }),
      ),
    ).toEqual({ status: 403, message: 'You can’t report your own listing.' });
    expect(
      await refusal(
        api(t.app, buyer.accessToken).community.moderation.member.message.mutate({
          offerId,
          reason: 'harassment',
        }),
      ),
    ).toEqual({ status: 403, message: 'You can’t report your own message.' });
    expect(
      await refusal(
        api(t.app, other.accessToken).community.moderation.member.message.mutate({
          offerId: counterId,
          reason: 'harassment',
        }),
      ),
    ).toEqual({ status: 404, message: 'We could not find that message.' });
    const draft = await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'Unpublished' }),
      status: 'draft',
    });
    expect(
      await statusOf(
        api(t.app, buyer.accessToken).community.moderation.member.listing.mutate({
          listingId: draft.id,
          reason: 'other',
        }),
      ),
    ).toBe(404);
    expect(await db.selectFrom('reports').select('id').execute()).toEqual([]);
  });

  it('takes one open report per member and target', async () => {
    const as = api(t.app, buyer.accessToken);
    const { id } = await as.community.moderation.member.listing.mutate({
      listingId: fake.id,
      reason: 'not_as_described',
      details: '  The photos are of a different edition.  ',
    });
    expect(await reportRow(id)).toMatchObject({
      target_kind: 'listing',
      listing_id: fake.id,
      offer_id: null,
      reporter_id: buyer.id,
      reason: 'not_as_described',
      details: 'The photos are of a different edition.',
      status: 'open',
      resolved_at: null,
    });
    expect(
      await refusal(
        as.community.moderation.member.listing.mutate({ listingId: fake.id, reason: 'prohibited' }),
      ),
    ).toEqual({
      status: 409,
      message: 'You’ve already reported this; our team will review it.',
    });
    // Someone else may report the same listing.
    await api(t.app, other.accessToken).community.moderation.member.listing.mutate({
      listingId: fake.id,
      reason: 'prohibited',
    });
    // The message the seller sent the buyer.
    await as.community.moderation.member.message.mutate({
      offerId: counterId,
      reason: 'harassment',
      details: 'Rude counter-offer',
    });
    expect(
      await statusOf(as.community.moderation.member.message.mutate({ offerId: counterId, reason: 'spam' })),
    ).toBe(409);
  });

  it('is rate-limited per member', async () => {
    const busy = await createUser(db, t.services.identity, 'busy@reports.test');
    for (let i = 0; i < REPORT_RATE.limit; i += 1) await reserve(db, REPORT_RATE, busy.id);
    const refused = await refusal(
      api(t.app, busy.accessToken).community.moderation.member.listing.mutate({
        listingId: spare.id,
        reason: 'other',
      }),
    );
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/^Too many attempts/);
  });
});

describe('the staff queue', () => {
  it('lists open reports with their target and how many open reports it has', async () => {
    const as = api(t.app, moderator.accessToken);
    const open = await as.community.moderation.staff.list.query({});
    expect(open).toHaveLength(3);
    // By harm (HARM_KINDS): the prohibited item, then the harassing message, then the counterfeit.
    const [second, third, first] = open;
    expect(open.map((report) => report.harm)).toEqual([
      'illegal_item',
      'harassment',
      'intellectual_property',
    ]);
    expect(first).toMatchObject({
      kind: 'listing',
      reason: 'not_as_described',
      reasonLabel: 'Counterfeit or not as described',
      details: 'The photos are of a different edition.',
      reporter: { email: buyer.email },
      openOnTarget: 2,
      listing: { id: fake.id, title: 'A Very Suspicious Atlas', status: 'active', sellerEmail: seller.email },
      message: null,
    });
    expect(second).toMatchObject({ kind: 'listing', openOnTarget: 2, reporter: { email: other.email } });
    expect(third).toMatchObject({
      kind: 'offer_message',
      openOnTarget: 1,
      listing: null,
      message: {
        offerId: counterId,
        text: 'Go away, you cheapskate',
        hidden: false,
        senderEmail: seller.email,
        listingTitle: 'An Honest Almanac',
      },
    });
    const messages = await as.community.moderation.staff.list.query({ kind: 'offer_message' });
    expect(messages.map((report) => report.id)).toEqual([third!.id]);
    expect(await as.community.moderation.staff.list.query({ status: 'dismissed' })).toEqual([]);
    expect(await as.community.moderation.staff.openCount.query()).toEqual({ open: 3 });
    expect(await refusal(as.community.moderation.staff.list.query({ status: 'closed' as never }))).toEqual({
      status: 400,
      message: 'status: Choose a status from the list',
    });
  });

  it('dismisses one report with a note, audited; the others on the listing stay open', async () => {
    const as = api(t.app, moderator.accessToken);
    // Theirs (a prohibited item) comes before mine (counterfeit): HARM_KINDS' order.
    const [theirs, mine] = await as.community.moderation.staff.list.query({ kind: 'listing' });
    expect(
      await refusal(as.community.moderation.staff.dismiss.mutate({ reportId: theirs!.id, note: '' })),
    ).toEqual({
      status: 400,
      message: 'note: Write a note (at least 3 characters): why it needs no action',
    });
    await as.community.moderation.staff.dismiss.mutate({
      reportId: theirs!.id,
      note: 'Not a prohibited item',
    });
    expect(await reportRow(theirs!.id)).toMatchObject({
      status: 'dismissed',
      resolved_by: moderator.id,
      resolution_note: 'Not a prohibited item',
    });
    expect(await auditOf('report.dismiss')).toEqual([
      {
        actor_email: moderator.email,
        target_type: 'report',
        target_id: theirs!.id,
        details: {
          kind: 'listing',
          reason: 'prohibited',
          harm: 'illegal_item',
          listingId: fake.id,
          note: 'Not a prohibited item',
        },
      },
    ]);
    expect((await reportRow(mine!.id)).status).toBe('open');
    expect(
      await refusal(
        as.community.moderation.staff.dismiss.mutate({ reportId: theirs!.id, note: 'Again, please' }),
      ),
    ).toEqual({ status: 409, message: 'This report is already dismissed. Refresh the page.' });
    const dismissed = await as.community.moderation.staff.list.query({ status: 'dismissed' });
    expect(dismissed).toMatchObject([
      { id: theirs!.id, resolvedByEmail: moderator.email, resolutionNote: 'Not a prohibited item' },
    ]);
  });

  it('acting on a listing removes it, emails the seller and closes every open report on it', async () => {
    // A third member reports it too, so two reports are open on the listing.
    const third = await createUser(db, t.services.identity, 'third@reports.test');
    const { id: late } = await api(t.app, third.accessToken).community.moderation.member.listing.mutate({
      listingId: fake.id,
      reason: 'scam_or_fraud',
    });
    const as = api(t.app, moderator.accessToken);
    const open = await as.community.moderation.staff.list.query({ kind: 'listing' });
    // The late one (fraud) is first in the queue; the first one came in before it.
    expect(open.map((report) => report.id)[0]).toBe(late);
    const first = open.find((report) => report.reporter.email === buyer.email);
    expect(first!.openOnTarget).toBe(2);
    expect(
      await as.community.moderation.staff.act.mutate({ reportId: first!.id, note: 'Counterfeit copy' }),
    ).toEqual({
      kind: 'listing',
      closed: 2,
    });
    expect(await api(t.app).catalogue.listings.bySlug.query({ slug: fake.slug })).toMatchObject({
      status: 'removed',
      available: false,
    });
    // The seller is told why, and that they may appeal (close-reports.ts).
    expect(await lastEmailTo(db, seller.email)).toMatchObject({ template: 'safety.content_removed' });
    for (const id of [first!.id, late]) {
      expect(await reportRow(id)).toMatchObject({
        status: 'actioned',
        resolved_by: moderator.id,
        resolution_note: 'Counterfeit copy',
      });
    }
    // The dismissed one stays dismissed.
    expect(await as.community.moderation.staff.list.query({ status: 'dismissed' })).toHaveLength(1);
    expect(await auditOf('listing.remove')).toMatchObject([
      { actor_email: moderator.email, target_id: fake.id, details: { reason: 'Counterfeit copy' } },
    ]);
    expect((await auditOf('report.action')).map((entry) => entry.target_id).sort()).toEqual(
      [first!.id, late].sort(),
    );
    expect(
      await refusal(as.community.moderation.staff.act.mutate({ reportId: late, note: 'Again' })),
    ).toEqual({
      status: 409,
      message: 'This report is already actioned. Refresh the page.',
    });
    // A removed listing cannot be reported again.
    expect(
      await refusal(
        api(t.app, buyer.accessToken).community.moderation.member.listing.mutate({
          listingId: fake.id,
          reason: 'other',
        }),
      ),
    ).toEqual({ status: 409, message: 'Our team has already removed this listing.' });
  });

  it('removing a listing from /admin/listings closes its open reports too', async () => {
    const listing = await createListing(db, {
      sellerId: seller.id,
      bookId: await createBook(db, { title: 'Reported Then Removed' }),
    });
    const { id } = await api(t.app, buyer.accessToken).community.moderation.member.listing.mutate({
      listingId: listing.id,
      reason: 'prohibited',
    });
    await api(t.app, admin.accessToken).community.moderation.listings.setRemoved.mutate({
      listingId: listing.id,
      removed: true,
      reason: 'Prohibited item',
    });
    expect(await reportRow(id)).toMatchObject({ status: 'actioned', resolved_by: admin.id });
  });

  it('acting on a message hides it in the thread for both people and may warn its sender', async () => {
    const as = api(t.app, moderator.accessToken);
    const [report] = await as.community.moderation.staff.list.query({ kind: 'offer_message' });
    expect(
      await as.community.moderation.staff.act.mutate({
        reportId: report!.id,
        note: 'Abusive language',
        warnSender: true,
      }),
    ).toEqual({ kind: 'offer_message', closed: 1 });
    for (const [user, role] of [
      [buyer, 'buyer'],
      [seller, 'seller'],
    ] as const) {
      const [thread] = await api(t.app, user.accessToken).commerce.offers.member.list.query({
        role,
        listingId: spare.id,
      });
      const rounds = thread!.rounds.map((round) => ({
        id: round.id,
        message: round.message,
        messageRemoved: round.messageRemoved,
      }));
      expect(rounds).toEqual([
        { id: offerId, message: 'Would you take £7?', messageRemoved: false },
        { id: counterId, message: null, messageRemoved: true },
      ]);
    }
    expect(await reportRow(report!.id)).toMatchObject({
      status: 'actioned',
      resolution_note: 'Abusive language',
    });
    expect(await auditOf('offer.hide_message')).toEqual([
      {
        actor_email: moderator.email,
        target_type: 'offer',
        target_id: counterId,
        details: { senderId: seller.id, note: 'Abusive language', warned: true },
      },
    ]);
    const warning = await lastEmailTo(db, seller.email);
    expect(warning).toMatchObject({ template: 'offer_message_removed' });
    expect(warning?.text_body).toContain('The reason: Abusive language');
    // Staff still see what was said; the reporter cannot report it again.
    const [closed] = await as.community.moderation.staff.list.query({
      status: 'actioned',
      kind: 'offer_message',
    });
    expect(closed!.message).toMatchObject({ text: 'Go away, you cheapskate', hidden: true });
    expect(
      await refusal(
        api(t.app, buyer.accessToken).community.moderation.member.message.mutate({
          offerId: counterId,
          reason: 'other',
        }),
      ),
    ).toEqual({ status: 409, message: 'Our team has already removed this message.' });
    expect(await as.community.moderation.staff.openCount.query()).toEqual({ open: 0 });
  });
});
