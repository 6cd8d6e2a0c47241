import { useState } from 'react';

const PROMO_KEY = 'reshelf:basket-promo';

/**
 * The promo code entered on the basket, kept for this tab so it follows the buyer from the
 * basket to its checkout (and back).
 */
export function useBasketPromo(): [string | null, (code: string | null) => void] {
  const [code, setCode] = useState<string | null>(() => {
    try {
      return sessionStorage.getItem(PROMO_KEY);
    } catch {
      return null;
    }
  });
  const update = (next: string | null) => {
    try {
      if (next) sessionStorage.setItem(PROMO_KEY, next);
      else sessionStorage.removeItem(PROMO_KEY);
    } catch {
      // Private modes may refuse storage: the code still applies on this page.
    }
    setCode(next);
  };
  return [code, update];
}
