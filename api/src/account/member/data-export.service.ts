/**
 * "Download your data" (UK GDPR right of access): everything Reshelf holds about one member, as
 * one JSON document (packages/contracts data-export.ts). Read in one read-only snapshot, one
 * bounded query per section (orders carry their items in the same query); the sections other
 * features already answer (profile, email settings, follows, saved searches, payouts, tokens) are
 * read through their services.
 *
 * Left out on purpose: password hashes and session or token secrets (auth tables, token hashes
 * and prefixes), other members' emails and addresses (a sale's delivery address is the buyer's),
 * other members' message text, staff notes (removal reasons, resolution notes) and risk flags
 * (off-platform detection, hidden messages, holds).
 */
import {
  countOf,
  DATA_EXPORT_MAX_ROWS,
  DATA_EXPORT_NOTIFICATIONS,
  DATA_EXPORT_PER_HOUR,
  DATA_EXPORT_VERSION,
  type DataExport,
  type OrderExport,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { listSellerPayouts, statementMonths } from '../../commerce/index.ts';
import { listSavedSearches, listWants, myFollows } from '../../community/index.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { type RateRule, reserve } from '../../http/rate-limit.ts';
import { listApiTokens } from '../../platform/identity/api-tokens.ts';
import { traderStatus } from '../../selling/index.ts';
import { getEmailPreferences } from '../notifications/preferences.ts';
import { getProfile } from './account.service.ts';

/** A few exports an hour per member: each one reads every table about them. */
export const DATA_EXPORT_RATE: RateRule = {
  bucket: 'data-export',
  limit: DATA_EXPORT_PER_HOUR,
  windowSeconds: 60 * 60,
};

/** Takes one of the member's export slots for this hour, or refuses (429) saying when to try again. */
export async function takeExportSlot(db: Database, userId: string): Promise<void> {
  const state = await reserve(db, DATA_EXPORT_RATE, userId);
  if (state.allowed) return;
  const minutes = Math.max(1, Math.ceil(state.retryAfterSeconds / 60));
  throw new AppError(
    'RATE_LIMITED',
    `You can download your data ${DATA_EXPORT_PER_HOUR} times an hour. Try again in ${countOf(minutes, 'minute', 'minutes')}.`,
    { retryAfterSeconds: state.retryAfterSeconds },
  );
}

const isoOf = (value: Date | null): string | null => (value ? value.toISOString() : null);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

interface OrderRow {
  id: string;
  reference: string;
  status: string;
  item_price_minor: number;
  postage_minor: number;
  buyer_protection_minor: number;
  discount_minor: number;
  total_minor: number;
  created_at: Date;
  paid_at: Date | null;
  dispatched_at: Date | null;
  delivered_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  refunded_at: Date | null;
  carrier: string | null;
  tracking_ref: string | null;
  shipping_address: OrderExport['shippingAddress'];
  buyer_id: string;
  items: { listingId: string; title: string | null; priceMinor: number; refundedMinor: number }[];
}

function toOrder(row: OrderRow, userId: string): OrderExport {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    itemsMinor: row.item_price_minor,
    postageMinor: row.postage_minor,
    buyerProtectionMinor: row.buyer_protection_minor,
    discountMinor: row.discount_minor,
    totalMinor: row.total_minor,
    createdAt: row.created_at.toISOString(),
    paidAt: isoOf(row.paid_at),
    dispatchedAt: isoOf(row.dispatched_at),
    deliveredAt: isoOf(row.delivered_at),
    completedAt: isoOf(row.completed_at),
    cancelledAt: isoOf(row.cancelled_at),
    refundedAt: isoOf(row.refunded_at),
    carrier: row.carrier,
    trackingRef: row.tracking_ref,
    items: row.items,
    // The address a buyer gave is theirs; on a sale it is the buyer's, so never in the seller's copy.
    shippingAddress:
      row.buyer_id === userId && row.shipping_address
        ? {
            fullName: row.shipping_address.fullName,
            line1: row.shipping_address.line1,
            line2: row.shipping_address.line2 ?? null,
            town: row.shipping_address.town,
            postcode: row.shipping_address.postcode,
          }
        : null,
  };
}

/** The member's own data, read in one consistent snapshot. */
export async function exportMemberData(db: Database, userId: string, now = new Date()): Promise<DataExport> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const user = await trx
        .selectFrom('auth.users')
        .select(['email', 'created_at', 'email_confirmed_at', 'last_sign_in_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw new AppError('NOT_FOUND', 'We could not find your account.');
      const profile = await getProfile(trx, userId);
      const profileExtra = await trx
        .selectFrom('profiles')
        .select(['avatar_url', 'accepts_returns', 'signup_completed_at', 'onboarded_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const trader = await traderStatus(trx, userId);
      const access = await sql<{ roles: string[]; tier: string | null; genres: string[] }>`
        select
          coalesce((select array_agg(r.role order by r.role) from public.user_roles r where r.user_id = ${userId}), '{}') as roles,
          (select a.admin_role from public.admin_users a where a.user_id = ${userId} and a.is_active) as tier,
          coalesce((select array_agg(g.name order by g.position, g.name) from public.profile_genres pg
                     join public.genres g on g.id = pg.genre_id where pg.user_id = ${userId}), '{}') as genres
      `.execute(trx);
      const { roles, tier, genres } = access.rows[0]!;
      const preferences = await getEmailPreferences(trx, userId);

      const addresses = await trx
        .selectFrom('addresses')
        .select(['full_name', 'line1', 'line2', 'town', 'postcode', 'is_default', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS)
        .execute();

      const listings = await trx
        .selectFrom('listings as l')
        .leftJoin('books as b', 'b.id', 'l.book_id')
        .leftJoin('charities as c', 'c.id', 'l.charity_id')
        .select([
          'l.id',
          'l.slug',
          'b.title',
          'b.authors',
          'l.status',
          'l.condition',
          'l.condition_notes',
          'l.description',
          'l.price_minor',
          'l.photos',
          'c.name as charity',
          'l.created_at',
          'l.published_at',
        ])
        .where('l.seller_id', '=', userId)
        .orderBy('l.created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS)
        .execute();

      const orders = await sql<OrderRow>`
        select o.id, o.reference, o.status, o.item_price_minor, o.postage_minor, o.buyer_protection_minor,
               o.discount_minor, o.total_minor, o.created_at, o.paid_at, o.dispatched_at, o.delivered_at,
               o.completed_at, o.cancelled_at, o.refunded_at, o.carrier, o.tracking_ref,
               o.shipping_address, o.buyer_id,
               coalesce((
                 select jsonb_agg(jsonb_build_object(
                          'listingId', i.listing_id, 'title', b.title,
                          'priceMinor', i.price_minor, 'refundedMinor', i.refunded_minor) order by i.position)
                   from public.order_items i
                   join public.listings li on li.id = i.listing_id
                   left join public.books b on b.id = li.book_id
                  where i.order_id = o.id), '[]'::jsonb) as items
          from public.orders o
         where o.buyer_id = ${userId} or o.seller_id = ${userId}
         order by o.created_at desc, o.id
         limit ${DATA_EXPORT_MAX_ROWS * 2}`.execute(trx);

      const offers = await trx
        .selectFrom('offers as f')
        .innerJoin('listings as l', 'l.id', 'f.listing_id')
        .leftJoin('books as b', 'b.id', 'l.book_id')
        .select([
          'f.id',
          'f.listing_id',
          'b.title',
          'f.buyer_id',
          'f.made_by',
          'f.amount_minor',
          'f.status',
          'f.round',
          'f.message',
          'f.created_at',
          'f.responded_at',
          'f.expires_at',
        ])
        .where((eb) => eb.or([eb('f.buyer_id', '=', userId), eb('f.seller_id', '=', userId)]))
        .orderBy('f.created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS * 2)
        .execute();

      // Only what the member sent: the threads are theirs (as buyer or seller), the text is theirs.
      const messages = await trx
        .selectFrom('message_threads as t')
        .innerJoin('messages as m', 'm.thread_id', 't.id')
        .leftJoin('listings as l', 'l.id', 't.listing_id')
        .leftJoin('books as b', 'b.id', 'l.book_id')
        .select(['m.id', 'm.thread_id', 'b.title', 'm.created_at', 'm.body', 'm.photos'])
        .where((eb) => eb.or([eb('t.buyer_id', '=', userId), eb('t.seller_id', '=', userId)]))
        .where('m.sender_id', '=', userId)
        .orderBy('m.created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS)
        .execute();

      // Reviews they wrote, and those about them that are published (a hidden one stays hidden).
      const reviews = await trx
        .selectFrom('reviews')
        .select([
          'id',
          'order_id',
          'author_id',
          'author_role',
          'stars',
          'body',
          'created_at',
          'published_at',
          'reply',
        ])
        .where((eb) =>
          eb.or([
            eb('author_id', '=', userId),
            eb.and([
              eb('subject_id', '=', userId),
              eb('published_at', 'is not', null),
              eb('removed_at', 'is', null),
            ]),
          ]),
        )
        .orderBy('created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS * 2)
        .execute();

      const wishlist = await trx
        .selectFrom('wishlist_items as w')
        .innerJoin('listings as l', 'l.id', 'w.listing_id')
        .leftJoin('books as b', 'b.id', 'l.book_id')
        .select(['w.listing_id', 'b.title', 'w.created_at'])
        .where('w.user_id', '=', userId)
        .orderBy('w.created_at', 'desc')
        .limit(DATA_EXPORT_MAX_ROWS)
        .execute();

      const follows = await myFollows(trx, userId);
      const savedSearches = await listSavedSearches(trx, userId);
      const wants = await listWants(trx, userId);

      const notifications = await trx
        .selectFrom('notifications')
        // Not the body: a notice can quote another member (a message, an offer's note, a reason).
        .select(['kind', 'title', 'link', 'created_at', 'read_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(DATA_EXPORT_NOTIFICATIONS)
        .execute();

      const payouts = await listSellerPayouts(trx, userId);
      const statements = await statementMonths(trx, userId, DATA_EXPORT_MAX_ROWS);

      const charities = await trx
        .selectFrom('charity_members as m')
        .innerJoin('charities as c', 'c.id', 'm.charity_id')
        .select(['c.name', 'c.slug', 'm.role', 'm.created_at'])
        .where('m.user_id', '=', userId)
        .orderBy('m.created_at')
        .limit(DATA_EXPORT_MAX_ROWS)
        .execute();

      const tokens = await listApiTokens(trx, userId);

      // `made_by` is the side that made the round: 'buyer' or 'seller'.
      const madeByMember = (row: (typeof offers)[number]) =>
        (row.made_by === 'buyer') === (row.buyer_id === userId);
      const offer = (row: (typeof offers)[number]) => ({
        id: row.id,
        listingId: row.listing_id,
        title: row.title,
        role: row.buyer_id === userId ? ('buyer' as const) : ('seller' as const),
        amountMinor: row.amount_minor,
        status: row.status,
        round: row.round,
        // The note with an offer is its maker's words: only in the maker's copy.
        message: madeByMember(row) ? row.message : null,
        createdAt: row.created_at.toISOString(),
        respondedAt: isoOf(row.responded_at),
        expiresAt: row.expires_at.toISOString(),
      });
      const review = (row: (typeof reviews)[number]) => ({
        id: row.id,
        orderId: row.order_id,
        authorRole: row.author_role,
        stars: row.stars,
        body: row.body,
        createdAt: row.created_at.toISOString(),
        publishedAt: isoOf(row.published_at),
        // A reply to a review the member wrote is the other member's words; to one about them, theirs.
        reply: row.author_id === userId ? null : row.reply,
      });
      const orderRows = orders.rows.map((row) => toOrder(row, userId));

      return {
        version: DATA_EXPORT_VERSION,
        generatedAt: now.toISOString(),
        account: {
          id: userId,
          email: user.email,
          displayName: profile.displayName,
          createdAt: user.created_at.toISOString(),
          emailConfirmedAt: isoOf(user.email_confirmed_at),
          lastSignInAt: isoOf(user.last_sign_in_at),
          roles,
          adminTier: tier,
          emailPreferences: preferences.lists,
        },
        profile: {
          displayName: profile.displayName,
          bio: profile.bio,
          town: profile.town,
          avatarUrl: profileExtra.avatar_url,
          acceptsReturns: profileExtra.accepts_returns,
          sellsAs: trader.answer,
          businessSeller: trader.business,
          signupCompletedAt: isoOf(profileExtra.signup_completed_at),
          onboardedAt: isoOf(profileExtra.onboarded_at),
          favouriteGenres: genres,
          favouriteAuthors: profile.favouriteAuthors,
        },
        addresses: addresses.map((row) => ({
          fullName: row.full_name,
          line1: row.line1,
          line2: row.line2,
          town: row.town,
          postcode: row.postcode,
          isDefault: row.is_default,
          createdAt: row.created_at.toISOString(),
        })),
        listings: listings.map((row) => ({
          id: row.id,
          slug: row.slug,
          title: row.title,
          authors: row.authors ?? [],
          status: row.status,
          condition: row.condition,
          conditionNotes: row.condition_notes,
          description: row.description,
          priceMinor: row.price_minor,
          photos: strings(row.photos),
          charity: row.charity,
          createdAt: row.created_at.toISOString(),
          publishedAt: isoOf(row.published_at),
        })),
        orders: {
          asBuyer: orderRows.filter((_, index) => orders.rows[index]!.buyer_id === userId),
          asSeller: orderRows.filter((_, index) => orders.rows[index]!.buyer_id !== userId),
        },
        offers: {
          made: offers.filter(madeByMember).map(offer),
          received: offers.filter((row) => !madeByMember(row)).map(offer),
        },
        messages: messages.map((row) => ({
          id: row.id,
          threadId: row.thread_id,
          listingTitle: row.title,
          sentAt: row.created_at.toISOString(),
          text: row.body,
          photos: strings(row.photos),
        })),
        reviews: {
          written: reviews.filter((row) => row.author_id === userId).map(review),
          received: reviews.filter((row) => row.author_id !== userId).map(review),
        },
        wishlist: wishlist.map((row) => ({
          listingId: row.listing_id,
          title: row.title,
          addedAt: row.created_at.toISOString(),
        })),
        follows: follows.follows,
        savedSearches,
        wants,
        notifications: notifications.map((row) => ({
          kind: row.kind,
          title: row.title,
          link: row.link,
          createdAt: row.created_at.toISOString(),
          readAt: isoOf(row.read_at),
        })),
        payouts,
        statements: statements.map((row) => ({
          month: row.month,
          kind: row.kind,
          entries: row.entries,
          amountMinor: row.amount_minor,
        })),
        charities: charities.map((row) => ({
          name: row.name,
          slug: row.slug,
          role: row.role,
          memberSince: row.created_at.toISOString(),
        })),
        apiTokens: tokens.tokens.map((token) => ({
          name: token.name,
          scope: token.scope,
          status: token.status,
          createdAt: token.createdAt,
          expiresAt: token.expiresAt,
          lastUsedAt: token.lastUsedAt,
          revokedAt: token.revokedAt,
        })),
      };
    });
}
