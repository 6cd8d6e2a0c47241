import { minimumOfferMinor } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { bundleOfferLimits } from './BundleOffer.tsx';

describe('"Ask for a bundle price"', () => {
  it('asks for at least half the books’ prices and less than they cost with the seller’s tier', () => {
    // Three books at £3.49 + £5.49 + £5.50, 10% bundle discount.
    const limits = bundleOfferLimits({ itemSubtotalMinor: 1448, discountedSubtotalMinor: 1303 });
    expect(limits).toEqual({ subtotal: 1448, asking: 1303, least: minimumOfferMinor(1448) });
    expect(limits.least).toBe(724);
  });

  it('without a tier, the asking price is the books’ total', () => {
    expect(bundleOfferLimits({ itemSubtotalMinor: 1000, discountedSubtotalMinor: 1000 }).asking).toBe(1000);
  });
});
