import { z } from 'zod';
import { deliveryQuoteSchema } from './parcels.ts';
import { postcodeSchema } from './postcode.ts';
import { traderSchema } from './traders.ts';

export { normalisePostcode, postcodeSchema } from './postcode.ts';

export const addressInputSchema = z.object({
  fullName: z.string().trim().min(1, 'Enter the name to deliver to').max(100, 'Use at most 100 characters'),
  line1: z
    .string()
    .trim()
    .min(1, 'Enter the first line of the address')
    .max(100, 'Use at most 100 characters'),
  line2: z
    .string()
    .trim()
    .max(100, 'Use at most 100 characters')
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .default(null),
  town: z.string().trim().min(1, 'Enter a town or city').max(60, 'Use at most 60 characters'),
  postcode: postcodeSchema,
});
export type AddressInput = z.infer<typeof addressInputSchema>;

/** A promo code as a buyer types it: spaces trimmed, upper case; the server decides if it exists. */
export const promoCodeInputSchema = z
  .string()
  .trim()
  .toUpperCase()
  .min(1, 'Enter a promo code')
  .max(40, 'We don’t recognise that code.');

export const promoOutcomeSchema = z.object({
  code: z.string(),
  /**
   * applied: the code's discount is on the quote; refused: the code cannot be used (message says
   * why, and checkout refuses it); welcome_kept: valid, but WELCOME20 takes more off, so it stays.
   */
  status: z.enum(['applied', 'refused', 'welcome_kept']),
  message: z.string().nullable(),
});
export type PromoOutcome = z.infer<typeof promoOutcomeSchema>;

export const quoteSchema = z.object({
  listingId: z.string().uuid(),
  title: z.string(),
  itemMinor: z.number().int(),
  postageMinor: z.number().int(),
  /** The parcel, the method the postage is for, and what the other method would cost. */
  delivery: deliveryQuoteSchema,
  protectionMinor: z.number().int(),
  protectionVatMinor: z.number().int(),
  discountMinor: z.number().int(),
  /** WELCOME20 or the promotion's code; at most one discount applies (decision 0019). */
  discountCode: z.string().nullable(),
  /** What the discount is, for the buyer: "20% off your first order", "£5.00 off". */
  discountLabel: z.string().nullable(),
  totalMinor: z.number().int(),
  offerId: z.string().uuid().nullable(),
  /** The promo code the buyer entered, whether it applied, and if not, why. */
  promo: promoOutcomeSchema.nullable(),
  /** The trader selling it, shown before the order (traders.ts); null: a private seller. */
  trader: traderSchema.nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const idempotencyKeySchema = z
  .string()
  .trim()
  .min(8, 'The idempotency key is too short')
  .max(100, 'The idempotency key is too long');
