/**
 * A business seller's declaration (decision 0073): a member who sells as a trade gives the
 * details a trader must show before the order (traders.ts), validated here with clear errors.
 */
import { z } from 'zod';
import { postcodeSchema } from './checkout.ts';

/** A PO box, a Freepost or a mail drop is not a geographic address. */
const NOT_GEOGRAPHIC = /\b(p\.?\s*o\.?\s*box|post\s*office\s*box|freepost|pobox)\b/i;

/** UK company number: 8 digits (leading zeros may be left off), or 2 letters and 6 digits. */
export function parseCompanyNumber(input: string): string | null {
  const value = input.toUpperCase().replace(/\s+/g, '');
  if (/^\d{1,8}$/.test(value)) return value.padStart(8, '0');
  return /^(SC|NI|OC|SO|NC|R0|LP|SL)\d{6}$/.test(value) ? value : null;
}

/** UK VAT number: GB and 9 digits (or 12 for a branch); the GB may be left off. */
export function parseVatNumber(input: string): string | null {
  const value = input.toUpperCase().replace(/[\s-]+/g, '');
  const match = /^(?:GB)?(\d{9}|\d{12})$/.exec(value);
  return match ? `GB${match[1]}` : null;
}

const line = (max: number, missing: string) =>
  z
    .string()
    .trim()
    .min(1, missing)
    .max(max, `Use at most ${max} characters`)
    .refine((value) => !NOT_GEOGRAPHIC.test(value), {
      message: 'Give the address where you trade from, not a PO box or Freepost address',
    });

/** What a member who sells as a trade declares (their selling settings). */
export const businessSellerInputSchema = z
  .object({
    tradingName: z
      .string()
      .trim()
      .min(2, 'Enter your trading name (at least 2 characters)')
      .max(120, 'Use at most 120 characters for your trading name'),
    isCompany: z.boolean({ error: 'Say whether you trade as a company' }),
    companyNumber: z.string().trim().max(20).optional().default(''),
    vatNumber: z.string().trim().max(20).optional().default(''),
    addressLine1: line(120, 'Enter the first line of the address you trade from'),
    addressLine2: z
      .string()
      .trim()
      .max(120, 'Use at most 120 characters')
      .refine((value) => !NOT_GEOGRAPHIC.test(value), {
        message: 'Give the address where you trade from, not a PO box or Freepost address',
      })
      .optional()
      .default(''),
    town: line(80, 'Enter the town or city you trade from'),
    postcode: postcodeSchema,
    contactEmail: z
      .string()
      .trim()
      .email('Enter an email address buyers can reach you at, like name@example.com'),
  })
  .transform((input, ctx) => {
    const companyNumber = input.companyNumber ? parseCompanyNumber(input.companyNumber) : null;
    if (input.isCompany && !companyNumber)
      ctx.addIssue({
        code: 'custom',
        path: ['companyNumber'],
        message: input.companyNumber
          ? 'Enter a Companies House number: 8 digits, or 2 letters and 6 digits (like SC123456)'
          : 'Enter your company number (a company must give it)',
      });
    const vatNumber = input.vatNumber ? parseVatNumber(input.vatNumber) : null;
    if (input.vatNumber && !vatNumber)
      ctx.addIssue({
        code: 'custom',
        path: ['vatNumber'],
        message: 'Enter a UK VAT number: GB and 9 digits, like GB123456789 (or leave it empty)',
      });
    return {
      tradingName: input.tradingName,
      isCompany: input.isCompany,
      companyNumber: input.isCompany ? companyNumber : null,
      vatNumber,
      addressLine1: input.addressLine1,
      addressLine2: input.addressLine2 || null,
      town: input.town,
      postcode: input.postcode,
      contactEmail: input.contactEmail.toLowerCase(),
    };
  });
export type BusinessSellerInput = z.input<typeof businessSellerInputSchema>;
export type BusinessSellerDetails = z.output<typeof businessSellerInputSchema>;

export const businessSellerSchema = z.object({
  tradingName: z.string(),
  isCompany: z.boolean(),
  companyNumber: z.string().nullable(),
  vatNumber: z.string().nullable(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  town: z.string(),
  postcode: z.string(),
  contactEmail: z.string(),
  declaredAt: z.string(),
});
export type BusinessSeller = z.infer<typeof businessSellerSchema>;

/**
 * Where a member stands: trading (with their details), said they sell privately, or not asked.
 * `prompt` is true when they sell often (close to the platform-reporting threshold) and have
 * not said either way: the settings ask them. Nothing switches on its own.
 */
export const traderStatusSchema = z.object({
  answer: z.enum(['business', 'private', 'unanswered']),
  business: businessSellerSchema.nullable(),
  prompt: z.boolean(),
  answeredAt: z.string().nullable(),
});
export type TraderStatus = z.infer<typeof traderStatusSchema>;
