/**
 * Who sees the welcome gift (spec section 4): shown once, to a visitor with neither the
 * has-visited flag nor the gift-modal-shown flag. Flags are stored as "true"; any stored value
 * counts as set.
 */
import { WELCOME_GIFT } from '@reshelf/contracts';

export type GiftPhase = 'locked' | 'unlocking' | 'revealed';

export const FLAG_SET = 'true';

export function isWelcomeGiftDue(read: (key: string) => string | null): boolean {
  return read(WELCOME_GIFT.storage.hasVisited) === null && read(WELCOME_GIFT.storage.giftModalShown) === null;
}

/** "20% OFF" */
export const GIFT_HEADLINE = `${WELCOME_GIFT.discountPercent}% OFF`;
