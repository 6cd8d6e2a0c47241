/**
 * The price a buyer must pay for a listing (decision 0071), under the live commercial settings
 * staff can change: the item and buyer protection (the headline, "all-in"), and the postage of
 * the book on its own as "+ postage from". The rule is `shownPrice` in
 * packages/contracts/src/pricing.ts, priced by the same `priceGroup` checkout charges with, so a
 * shown price is checkout's total for the one book less its postage.
 *
 * Everything at or above commerce asks here. The catalogue's and community's cards and alerts,
 * below commerce in the layering (api/scripts/check-imports.ts), apply the same contracts
 * function to the same settings read inside their own statements (CARD_COLUMNS).
 */
import { type BasketPricingItem, type ShownPrice, shownPrice } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { type CommercialSettings, getCommercialSettings } from '../../platform/settings/settings.service.ts';

export type ShownPricer = (item: BasketPricingItem) => ShownPrice;

/** A pricer under the given settings (one read of them serves many listings). */
export function shownPricerUnder(settings: CommercialSettings): ShownPricer {
  return (item) => shownPrice(item, settings);
}

/** A pricer under the settings as they are now. */
export async function liveShownPricer(db: Database): Promise<ShownPricer> {
  return shownPricerUnder(await getCommercialSettings(db));
}
