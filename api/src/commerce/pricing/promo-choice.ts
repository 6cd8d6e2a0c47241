/**
 * One discount per checkout (decision 0019): a promo code replaces a first order's WELCOME20
 * only when it takes more off. The single-book and the basket checkout both decide here, so
 * the rule and what the buyer is told cannot drift apart.
 */
import { formatPence, type PromoOutcome, WELCOME_GIFT } from '@reshelf/contracts';

export function promoOrWelcome(
  code: string,
  promoMinor: number,
  welcomeMinor: number | null,
  welcome: boolean,
): { usePromo: boolean; promo: PromoOutcome } {
  if (welcomeMinor !== null && welcomeMinor >= promoMinor) {
    return {
      usePromo: false,
      promo: {
        code,
        status: 'welcome_kept',
        message: `Your first-order ${WELCOME_GIFT.code} discount saves you more (${formatPence(welcomeMinor)}), so we kept it: discounts can’t be combined.`,
      },
    };
  }
  return {
    usePromo: true,
    promo: {
      code,
      status: 'applied',
      message: welcome
        ? `${code} saves you more than your first-order ${WELCOME_GIFT.code} discount, so it replaces it: discounts can’t be combined.`
        : null,
    },
  };
}
