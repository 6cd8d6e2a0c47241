/**
 * "Download your data" (UK GDPR right of access): one JSON document with what Reshelf holds about
 * the member who asks, and only them. Amounts are integer pence, times ISO 8601 strings. Never in
 * it: password hashes, session or API token secrets, other members' emails or addresses, other
 * members' message text, staff notes or risk flags.
 */
import { z } from 'zod';
import { businessSellerSchema, traderStatusSchema } from './business-sellers.ts';
import { emailPreferencesSchema } from './notifications.ts';
import { addressViewSchema } from './orders.ts';
import { payoutsListSchema } from './payouts.ts';
import { myFollowsSchema, savedSearchSchema } from './social.ts';
import { wantViewSchema } from './wants.ts';

/** Raised when the document's shape changes in a way a reader must know about. */
export const DATA_EXPORT_VERSION = 1;
/** How many exports a member may make in an hour (each one reads every table about them). */
export const DATA_EXPORT_PER_HOUR = 3;
/** The newest notifications included. */
export const DATA_EXPORT_NOTIFICATIONS = 500;
/** At most this many rows of any other section (far more than any member has). */
export const DATA_EXPORT_MAX_ROWS = 5000;

/** `reshelf-data-2026-11-25.json`: the file the browser saves, dated as the person's calendar says. */
export function dataExportFileName(generatedAt: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `reshelf-data-${generatedAt.getFullYear()}-${two(generatedAt.getMonth() + 1)}-${two(generatedAt.getDate())}.json`;
}

const iso = z.string();
const when = iso.nullable();

const orderExportSchema = z.object({
  id: z.string(),
  reference: z.string(),
  status: z.string(),
  itemsMinor: z.number().int(),
  postageMinor: z.number().int(),
  buyerProtectionMinor: z.number().int(),
  discountMinor: z.number().int(),
  totalMinor: z.number().int(),
  createdAt: iso,
  paidAt: when,
  dispatchedAt: when,
  deliveredAt: when,
  completedAt: when,
  cancelledAt: when,
  refundedAt: when,
  carrier: z.string().nullable(),
  trackingRef: z.string().nullable(),
  items: z.array(
    z.object({
      listingId: z.string(),
      title: z.string().nullable(),
      priceMinor: z.number().int(),
      refundedMinor: z.number().int(),
    }),
  ),
  /** Where the order went: on orders the member bought only (a buyer's address is theirs, not the seller's). */
  shippingAddress: addressViewSchema.nullable(),
});
export type OrderExport = z.infer<typeof orderExportSchema>;

const offerExportSchema = z.object({
  id: z.string(),
  listingId: z.string(),
  title: z.string().nullable(),
  /** The member's side of the offer. */
  role: z.enum(['buyer', 'seller']),
  amountMinor: z.number().int(),
  status: z.string(),
  round: z.number().int(),
  /** The note the member wrote with it (offers they made only). */
  message: z.string().nullable(),
  createdAt: iso,
  respondedAt: when,
  expiresAt: iso,
});

const reviewExportSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  /** The reviewer's side of the order. */
  authorRole: z.string(),
  stars: z.number().int(),
  body: z.string(),
  createdAt: iso,
  publishedAt: when,
  /** The reply the reviewed member wrote. */
  reply: z.string().nullable(),
});

export const dataExportSchema = z.object({
  version: z.literal(DATA_EXPORT_VERSION),
  generatedAt: iso,
  account: z.object({
    id: z.string(),
    email: z.string().nullable(),
    displayName: z.string(),
    createdAt: iso,
    emailConfirmedAt: when,
    lastSignInAt: when,
    /** Staff roles (admin, moderator). */
    roles: z.array(z.string()),
    /** A global admin's tier, when they have one. */
    adminTier: z.string().nullable(),
    /** The optional email lists and whether each is emailed (Reshelf sends no marketing email). */
    emailPreferences: emailPreferencesSchema.shape.lists,
  }),
  profile: z.object({
    displayName: z.string(),
    bio: z.string().nullable(),
    town: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    acceptsReturns: z.boolean(),
    /** Whether they said they sell as a business or privately, and a business seller's details (decision 0073). */
    sellsAs: traderStatusSchema.shape.answer,
    businessSeller: businessSellerSchema.nullable(),
    signupCompletedAt: when,
    onboardedAt: when,
    favouriteGenres: z.array(z.string()),
    favouriteAuthors: z.array(z.string()),
  }),
  addresses: z.array(addressViewSchema.extend({ isDefault: z.boolean(), createdAt: iso })),
  listings: z.array(
    z.object({
      id: z.string(),
      /** Null for a draft not yet published. */
      slug: z.string().nullable(),
      title: z.string().nullable(),
      authors: z.array(z.string()),
      status: z.string(),
      condition: z.string().nullable(),
      conditionNotes: z.string().nullable(),
      description: z.string().nullable(),
      priceMinor: z.number().int().nullable(),
      photos: z.array(z.string()),
      charity: z.string().nullable(),
      createdAt: iso,
      publishedAt: when,
    }),
  ),
  orders: z.object({ asBuyer: z.array(orderExportSchema), asSeller: z.array(orderExportSchema) }),
  offers: z.object({ made: z.array(offerExportSchema), received: z.array(offerExportSchema) }),
  /** Messages the member sent (not the other side's). */
  messages: z.array(
    z.object({
      id: z.string(),
      threadId: z.string(),
      /** The book the conversation is about, when it is about one. */
      listingTitle: z.string().nullable(),
      sentAt: iso,
      text: z.string(),
      photos: z.array(z.string()),
    }),
  ),
  reviews: z.object({ written: z.array(reviewExportSchema), received: z.array(reviewExportSchema) }),
  wishlist: z.array(z.object({ listingId: z.string(), title: z.string().nullable(), addedAt: iso })),
  follows: myFollowsSchema.shape.follows,
  savedSearches: z.array(savedSearchSchema),
  /** What the member wants (decision 0088), with their conditions and alerts. */
  wants: z.array(wantViewSchema),
  /**
   * The newest notifications (at most DATA_EXPORT_NOTIFICATIONS), without their text: a notice can
   * quote another member (a message, an offer's note, a return's reason).
   */
  notifications: z.array(
    z.object({
      kind: z.string(),
      title: z.string().nullable(),
      link: z.string().nullable(),
      createdAt: iso,
      readAt: when,
    }),
  ),
  payouts: payoutsListSchema,
  /** Money in and out by month (UK time) and kind, as the monthly statements total it. */
  statements: z.array(
    z.object({
      month: z.string(),
      kind: z.string(),
      entries: z.number().int(),
      amountMinor: z.number().int(),
    }),
  ),
  charities: z.array(z.object({ name: z.string(), slug: z.string(), role: z.string(), memberSince: iso })),
  /** Names and dates only: never the tokens. */
  apiTokens: z.array(
    z.object({
      name: z.string(),
      scope: z.string(),
      status: z.string(),
      createdAt: iso,
      expiresAt: iso,
      lastUsedAt: when,
      revokedAt: when,
    }),
  ),
});
export type DataExport = z.infer<typeof dataExportSchema>;
