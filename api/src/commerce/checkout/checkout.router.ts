import {
  addressInputSchema,
  basketStartInputSchema,
  basketStartResultSchema,
  booksTitle,
  deliveryChoiceSchema,
  dropOffPointSchema,
  dropOffSearchInputSchema,
  idempotencyKeySchema,
  postcodeSchema,
  promoCodeInputSchema,
  quoteSchema,
  savedAddressSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { isAppOrigin } from '../../http/cors.ts';
import { enforce } from '../../http/rate-limit.ts';
import { authedProcedure, type Context, router } from '../../trpc.ts';
import { itemsOfOrders } from '../orders/order-views.ts';
import { listAddresses, removeAddress, saveAddress } from './addresses.service.ts';
import { basketPaymentOrders, startBasket } from './basket-checkout.ts';
import { heldForBuyer, quote, resumeCheckout, startCheckout, withIdempotency } from './checkout.service.ts';
import { DROP_OFF_SEARCH_LIMIT, DROP_OFF_SEARCH_RATE, searchDropOffPoints } from './delivery.ts';

const sourceSchema = z.union([
  z.object({ listingId: z.string().uuid('Unknown book'), offerId: z.undefined().optional() }),
  z.object({ offerId: z.string().uuid('Unknown offer'), listingId: z.undefined().optional() }),
]);

const promoField = z.object({ promoCode: promoCodeInputSchema.optional() });

/** How the buyer wants the parcel (home delivery when not given) and, for its date, their postcode. */
const deliveryField = z.object({
  delivery: deliveryChoiceSchema.optional(),
  postcode: postcodeSchema.optional(),
});

const orderViewSchema = z.object({
  id: z.string().uuid(),
  reference: z.string(),
  status: z.string(),
  /** The order's title ("Brave New World and 2 more books"); `titles` names every book. */
  title: z.string(),
  titles: z.array(z.string()),
  itemMinor: z.number().int(),
  bundleDiscountMinor: z.number().int(),
  postageMinor: z.number().int(),
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  discountMinor: z.number().int(),
  discountCode: z.string().nullable(),
  totalMinor: z.number().int(),
  cancelReason: z.string().nullable(),
  listingSlug: z.string().nullable(),
  /** While the order waits for payment within its reservation: until when the book is held. */
  reservedUntil: z.string().nullable(),
  /** The buyer can go back to the payment they left ("Finish paying"). */
  canFinishPaying: z.boolean(),
  /** Once paid: when the seller must have sent it by. */
  dispatchBy: z.string().nullable(),
});

const startResultSchema = z.object({
  orderId: z.string().uuid(),
  reference: z.string(),
  redirectUrl: z.string(),
  totalMinor: z.number().int(),
});

function source(input: { listingId?: string; offerId?: string }) {
  return input.offerId ? { offerId: input.offerId } : { listingId: input.listingId as string };
}

function deps(ctx: Context) {
  const origin = ctx.req.headers.origin;
  return {
    ...ctx.deps,
    // Called from the app: the payment page sends the buyer back to the app's own routes.
    returnOrigin: isAppOrigin(origin) ? origin : undefined,
  };
}

export const checkoutRouter = router({
  /** The server's price for a listing or an accepted offer, line by line. */
  /** With `promoCode`, the quote says whether the code applies and, if not, why (decision 0019). */
  /** With `delivery`, the postage, total and date are for that choice (home delivery otherwise). */
  quote: authedProcedure
    .input(z.intersection(z.intersection(sourceSchema, promoField), deliveryField))
    .output(quoteSchema)
    .query(({ ctx, input }) =>
      quote(ctx.db, ctx.user.userId, source(input), input.promoCode ?? null, {
        choice: input.delivery,
        postcode: input.postcode,
        carriers: ctx.deps.carriers,
      }),
    ),

  /**
   * Lockers, parcel shops and Post Offices nearest a postcode (with `band`, only those that can
   * take that parcel), for the buyer's delivery choice at checkout (signed in, like the quote);
   * rate-limited by address.
   */
  dropOffPoints: authedProcedure
    .meta({
      openapi: {
        operationId: 'checkout-dropOffPoints',
        method: 'GET',
        path: '/checkout/drop-off-points',
        tags: ['Checkout'],
        summary: 'Drop-off points near a postcode',
      },
    })
    .input(dropOffSearchInputSchema)
    .output(z.object({ points: z.array(dropOffPointSchema) }))
    .query(async ({ ctx, input }) => {
      await enforce(ctx.db, [[DROP_OFF_SEARCH_RATE, ctx.req.ip]]);
      return {
        points: await searchDropOffPoints(
          ctx.deps.carriers,
          input.postcode,
          input.band ?? null,
          DROP_OFF_SEARCH_LIMIT,
        ),
      };
    }),

  /** Reserves the book for 15 minutes and opens the payment; a retried key answers once. */
  start: authedProcedure
    .input(
      z.intersection(
        sourceSchema,
        z.object({
          address: addressInputSchema,
          idempotencyKey: idempotencyKeySchema,
          promoCode: promoField.shape.promoCode,
          delivery: deliveryChoiceSchema.optional(),
        }),
      ),
    )
    .output(startResultSchema)
    .mutation(async ({ ctx, input }) => {
      const buyer = { id: ctx.user.userId, email: ctx.user.email };
      const request = {
        ...source(input),
        address: input.address,
        promoCode: input.promoCode ?? null,
        delivery: input.delivery ?? { method: 'home' as const },
      };
      return withIdempotency(ctx.db, buyer.id, 'checkout.start', input.idempotencyKey, request, (attempt) =>
        startCheckout(deps(ctx), buyer, request, attempt),
      );
    }),

  /**
   * Checkout of basket groups (decision 0043): one payment, one order per seller group, every
   * book reserved for 15 minutes or none. Takes the totals the buyer was shown; if the price is
   * no longer that, refuses (412) with the new quote in the error's `data.quote`. A retried key
   * answers once.
   */
  startBasket: authedProcedure
    .input(basketStartInputSchema)
    .output(basketStartResultSchema)
    .mutation(async ({ ctx, input }) => {
      const buyer = { id: ctx.user.userId, email: ctx.user.email };
      const request = {
        listingIds: input.listingIds,
        address: input.address,
        promoCode: input.promoCode ?? null,
        deliveries: input.deliveries,
        quotedTotalMinor: input.quotedTotalMinor,
        quotedGroups: input.quotedGroups,
      };
      return withIdempotency(
        ctx.db,
        buyer.id,
        'checkout.startBasket',
        input.idempotencyKey,
        request,
        (attempt) => startBasket(deps(ctx), buyer, request, attempt),
      );
    }),

  /** The orders one payment made (a basket checkout's success page), the buyer's own only, and what was paid. */
  paymentOrders: authedProcedure
    .input(z.object({ checkoutPaymentId: z.string().uuid('Unknown payment') }))
    .output(
      z.object({
        /** The one payment: every order's total. */
        totalMinor: z.number().int(),
        orders: z.array(
          z.object({
            id: z.string().uuid(),
            reference: z.string(),
            totalMinor: z.number().int(),
            /** Who sends the parcel: the seller's name, or the charity's for a charity shop's books. */
            sellerName: z.string(),
            titles: z.array(z.string()),
          }),
        ),
      }),
    )
    .query(({ ctx, input }) => basketPaymentOrders(ctx.db, ctx.user.userId, input.checkoutPaymentId)),

  /**
   * "Finish paying": back to the payment the buyer left, for the same order (the same session
   * while the provider keeps it open), within the book's 15-minute reservation.
   */
  resume: authedProcedure
    .input(z.object({ orderId: z.string().uuid('Unknown order') }))
    .output(startResultSchema)
    .mutation(({ ctx, input }) =>
      resumeCheckout(deps(ctx), { id: ctx.user.userId, email: ctx.user.email }, input.orderId),
    ),
  /** The caller's own order waiting for payment on this book, while it is held for them; else null. */
  held: authedProcedure
    .input(z.object({ listingId: z.string().uuid('Unknown book') }))
    .output(
      z
        .object({
          orderId: z.string().uuid(),
          reference: z.string(),
          reservedUntil: z.string(),
          totalMinor: z.number().int(),
        })
        .nullable(),
    )
    .query(async ({ ctx, input }) => {
      const held = await heldForBuyer(ctx.db, ctx.user.userId, input.listingId);
      return held ? { ...held, reservedUntil: held.reservedUntil.toISOString() } : null;
    }),
  /** The buyer's view of one order, for the success and cancel pages. */
  order: authedProcedure
    .input(z.object({ orderId: z.string().uuid('Unknown order') }))
    .output(orderViewSchema)
    .query(async ({ ctx, input }) => {
      const row = await ctx.db
        .selectFrom('orders as o')
        .select([
          'o.id',
          'o.reference',
          'o.status',
          'o.buyer_id',
          'o.item_price_minor',
          'o.bundle_discount_minor',
          'o.postage_minor',
          'o.buyer_protection_minor',
          'o.buyer_protection_vat_minor',
          'o.discount_minor',
          'o.discount_code',
          'o.total_minor',
          'o.cancel_reason',
          'o.reserved_until',
          'o.dispatch_by',
        ])
        .where('o.id', '=', input.orderId)
        .executeTakeFirst();
      if (!row || row.buyer_id !== ctx.user.userId)
        throw new AppError('NOT_FOUND', 'We could not find that order.');
      const held =
        row.status === 'pending_payment' && row.reserved_until !== null && row.reserved_until > new Date();
      const items = (await itemsOfOrders(ctx.db, [row.id])).get(row.id) ?? [];
      return {
        id: row.id,
        reference: row.reference,
        status: row.status,
        title: booksTitle(items.map((item) => item.title)),
        titles: items.map((item) => item.title),
        itemMinor: row.item_price_minor,
        bundleDiscountMinor: row.bundle_discount_minor,
        postageMinor: row.postage_minor,
        protectionMinor: row.buyer_protection_minor,
        protectionVatMinor: row.buyer_protection_vat_minor,
        discountMinor: row.discount_minor,
        discountCode: row.discount_code,
        totalMinor: row.total_minor,
        cancelReason: row.cancel_reason,
        listingSlug: items[0]?.listingSlug ?? null,
        reservedUntil: held ? (row.reserved_until as Date).toISOString() : null,
        canFinishPaying: held,
        dispatchBy: row.dispatch_by?.toISOString() ?? null,
      };
    }),

  /** The caller's saved delivery addresses, the default first. */
  addresses: authedProcedure
    .input(z.object({}).optional())
    .output(z.array(savedAddressSchema))
    .query(({ ctx }) => listAddresses(ctx.db, ctx.user.userId)),

  saveAddress: authedProcedure
    .input(z.object({ address: addressInputSchema, makeDefault: z.boolean().default(false) }))
    .output(savedAddressSchema)
    .mutation(({ ctx, input }) => saveAddress(ctx.db, ctx.user.userId, input.address, input.makeDefault)),

  removeAddress: authedProcedure
    .input(z.object({ addressId: z.string().uuid('Unknown address') }))
    .output(z.object({ removed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeAddress(ctx.db, ctx.user.userId, input.addressId);
      return { removed: true as const };
    }),
});
