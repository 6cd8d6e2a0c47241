/**
 * The listing wizard's shared pieces: where each step lives, what comes next, and saving a
 * step (the answer replaces the cached listing, so every page shows what was saved).
 */
import {
  parsePounds,
  priceMinorSchema,
  SELLING_MESSAGES,
  SELLING_STEPS,
  type SellerListing,
  type SellingStep,
} from '@reshelf/contracts';
import { z } from 'zod';
import { trpc } from '../../lib/trpc.ts';

export function wizardPath(listingId: string, step: SellingStep): string {
  return `/sell/wizard?draft=${encodeURIComponent(listingId)}&step=${step}`;
}

export function editPath(listingId: string, subpage?: string): string {
  return subpage ? `/sell/${listingId}/${subpage}` : `/sell/${listingId}`;
}

export function nextStep(step: SellingStep): SellingStep {
  const index = SELLING_STEPS.indexOf(step);
  return SELLING_STEPS[Math.min(index + 1, SELLING_STEPS.length - 1)]!;
}

export function previousStep(step: SellingStep): SellingStep | null {
  const index = SELLING_STEPS.indexOf(step);
  return index > 0 ? SELLING_STEPS[index - 1]! : null;
}

/** Where a draft resumes: its first unfinished step, or the review when nothing is missing. */
export function resumeStep(listing: Pick<SellerListing, 'missing'>): SellingStep {
  return listing.missing[0] ?? 'review';
}

export function isStep(value: string | null): value is SellingStep {
  return value !== null && (SELLING_STEPS as readonly string[]).includes(value);
}

/** Saving a step or an edit: the cached listing becomes the saved one, lists are refreshed. */
export function useSaveListing() {
  const utils = trpc.useUtils();
  return trpc.selling.listings.update.useMutation({
    onSuccess: (listing) => {
      utils.selling.listings.get.setData({ listingId: listing.id }, listing);
      void utils.selling.listings.mine.invalidate();
      void utils.selling.listings.priceSuggestion.invalidate({ listingId: listing.id });
    },
  });
}

/** A price as typed ("4.50", "£4.50", "4"): pence, or the message saying what is wrong. */
export const priceTextSchema = z
  .string()
  .trim()
  .min(1, SELLING_MESSAGES.priceMissing)
  .transform((value, ctx) => {
    const pence = parsePounds(value);
    if (pence === null) {
      ctx.addIssue({ code: 'custom', message: SELLING_MESSAGES.priceNotPence });
      return z.NEVER;
    }
    return pence;
  })
  .pipe(priceMinorSchema);

/** Pence as a person types pounds: 450 → "4.50". */
export function poundsText(pence: number | null | undefined): string {
  return pence === null || pence === undefined ? '' : (pence / 100).toFixed(2);
}
