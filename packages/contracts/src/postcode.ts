/**
 * A UK postcode: its own module so that the checkout and parcel contracts can both use it
 * without importing each other.
 */
import { z } from 'zod';

/** A UK postcode, normalised to upper case with one space before the inward code. */
export function normalisePostcode(value: string): string | null {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}$/.test(compact)) return null;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export const postcodeSchema = z
  .string()
  .trim()
  .min(1, 'Enter a postcode')
  .meta({ description: 'A UK postcode', examples: ['EC1A 1BB'] })
  .transform((value, ctx) => {
    const normalised = normalisePostcode(value);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: 'Enter a UK postcode, like SW1A 1AA' });
      return z.NEVER;
    }
    return normalised;
  });
