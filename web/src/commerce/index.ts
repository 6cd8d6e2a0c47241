/** Commerce's widgets other domains show (the web's import rule: api/scripts/check-imports.ts). */
export { AddToBasketButton } from './basket/AddToBasketButton.tsx';
export { BundleTiersSection } from './basket/BundleTiersSection.tsx';
export { BuyMoreFromSeller } from './basket/BuyMoreFromSeller.tsx';
export { HeldForYou, useHeldOrder } from './checkout/FinishPaying.tsx';
export { ReturnAnswer } from './disputes/ReturnAnswer.tsx';
export {
  FairPriceLine,
  FairPriceSuggestion,
  TypicalPrice,
  TypicalPrices,
  useListingFairPrices,
} from './fair-price/FairPrice.tsx';
export { ListingOffer } from './offers/ListingOffer.tsx';
