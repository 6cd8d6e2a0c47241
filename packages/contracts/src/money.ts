/** Money is integer pence everywhere; this is the one place it becomes pounds. */

const gbp = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatPence(minor: number): string {
  if (!Number.isInteger(minor)) {
    throw new TypeError(`formatPence expects whole pence, got ${minor}`);
  }
  return gbp.format(minor / 100);
}

/** Pence as a plain decimal string of pounds, "3.99": for machines (JSON-LD offers, CSV cells, a form's initial value). */
export function poundsString(minor: number): string {
  if (!Number.isInteger(minor)) throw new TypeError(`poundsString expects whole pence, got ${minor}`);
  return (minor / 100).toFixed(2);
}

/** Pence as a number of pounds, 3.99: for a chart's axis, never for arithmetic. */
export function poundsValue(minor: number): number {
  return minor / 100;
}

/** Parses a pounds amount typed by a person ("12", "12.5", "£1,234.50") into pence. */
export function parsePounds(input: string): number | null {
  const cleaned = input.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Percentage of an amount in pence, rounded half up to the penny. */
export function percentOf(minor: number, percent: number): number {
  return Math.floor((minor * percent) / 100 + 0.5);
}

/** Divides two non-negative integers and rounds half up, with no floating-point error. */
function divideRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** UK standard VAT rate, in percent. */
export const VAT_RATE_PERCENT = 20;

/** The VAT contained in a VAT-inclusive amount (20%: one sixth), rounded half up to the penny. */
export function vatOfInclusive(minor: number, ratePercent: number = VAT_RATE_PERCENT): number {
  if (!Number.isInteger(minor) || minor < 0)
    throw new RangeError('vatOfInclusive expects whole, non-negative pence');
  return divideRoundHalfUp(minor * ratePercent, 100 + ratePercent);
}

export interface BuyerProtectionRule {
  /** Fixed part of the fee, in pence (70p to start). */
  fixedMinor: number;
  /** Percentage of the item price (5 to start). */
  percent: number;
}

/**
 * Buyer protection (brief section 4): a fixed part plus a percentage of the item price
 * (postage excluded), rounded half up to the penny. The fee is VAT-inclusive.
 */
export function buyerProtectionFee(itemMinor: number, rule: BuyerProtectionRule): number {
  if (!Number.isInteger(itemMinor) || itemMinor < 0) {
    throw new RangeError('buyerProtectionFee expects whole, non-negative pence');
  }
  return rule.fixedMinor + percentOf(itemMinor, rule.percent);
}

export interface PriceBreakdown {
  itemMinor: number;
  postageMinor: number;
  protectionMinor: number;
  /** The VAT included in the protection fee (books are zero-rated; the fee is a service). */
  protectionVatMinor: number;
  totalMinor: number;
}

/** What a buyer pays for one listing before any discount: item + postage + buyer protection. */
export function priceBreakdown(input: {
  itemMinor: number;
  postageMinor: number;
  protection: BuyerProtectionRule;
  vatPercent?: number;
}): PriceBreakdown {
  const protectionMinor = buyerProtectionFee(input.itemMinor, input.protection);
  return {
    itemMinor: input.itemMinor,
    postageMinor: input.postageMinor,
    protectionMinor,
    protectionVatMinor: vatOfInclusive(protectionMinor, input.vatPercent ?? VAT_RATE_PERCENT),
    totalMinor: input.itemMinor + input.postageMinor + protectionMinor,
  };
}
