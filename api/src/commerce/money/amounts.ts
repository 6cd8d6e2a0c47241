/**
 * Every amount Reshelf derives from the money it stores, in one place (decision 0051). The SQL
 * side is the views of supabase/migrations/20261203100000_money_definitions.sql
 * (`order_item_money`, `order_money`, `sold_books`); `amounts.int.test.ts` holds each function
 * here to its view over generated orders, so the two cannot drift.
 *
 * Nothing outside api/src/commerce/money (and the shared rules of packages/contracts/src/money.ts)
 * does arithmetic on a `_minor` column or a `…Minor` field: `pnpm lint` fails when something does
 * (api/scripts/check-money.ts). A surface that shows a figure reads it from here.
 */

/** One book of an order as stored (order_items): its price and its exact shares (decision 0043). */
export interface StoredItem {
  price_minor: number;
  bundle_discount_minor: number;
  discount_minor: number;
  protection_minor: number;
  refunded_minor: number;
}

export interface ItemAmounts {
  /** What the seller earns for the book: its price less its share of the bundle discount. */
  sellerShareMinor: number;
  /** What the buyer paid for the book itself: the seller share less its share of the discount. */
  goodsMinor: number;
  /** What the buyer paid for it, postage aside: goods and its share of buyer protection. */
  paidMinor: number;
  /** What is still to come back for it. */
  refundableMinor: number;
  /** Its goods part is back: the book counts as refunded. */
  returned: boolean;
}

export function itemAmounts(item: StoredItem): ItemAmounts {
  const sellerShareMinor = item.price_minor - item.bundle_discount_minor;
  const goodsMinor = sellerShareMinor - item.discount_minor;
  const paidMinor = goodsMinor + item.protection_minor;
  return {
    sellerShareMinor,
    goodsMinor,
    paidMinor,
    refundableMinor: Math.max(0, paidMinor - item.refunded_minor),
    returned: item.refunded_minor >= goodsMinor,
  };
}

/** What a book can still give back: all of what is left, or (goods) without its protection share. */
export function owedBack(item: StoredItem, goods: boolean): number {
  const amounts = itemAmounts(item);
  return Math.max(0, (goods ? amounts.goodsMinor : amounts.paidMinor) - item.refunded_minor);
}

/** One part of a refund, for one book (refund_items). */
export interface RefundPart {
  amount_minor: number;
  protection_minor: number;
  discount_minor: number;
}

/**
 * What a refund part takes back from the seller: the part less the protection it gives back
 * (Reshelf's), plus the discount it takes back (Reshelf funded it; the seller was paid it).
 */
export function sellerPartOf(part: RefundPart): number {
  return part.amount_minor - part.protection_minor + part.discount_minor;
}

/** The parts of an order's price, as a quote or the order row has them. */
export interface OrderParts {
  itemsMinor: number;
  bundleDiscountMinor: number;
  discountMinor: number;
  postageMinor: number;
  protectionMinor: number;
}

/** What the buyer pays: the books less both discounts, postage and buyer protection. */
export function orderTotal(parts: OrderParts): number {
  return (
    parts.itemsMinor -
    parts.bundleDiscountMinor -
    parts.discountMinor +
    parts.postageMinor +
    parts.protectionMinor
  );
}

/** What an order earns its seller: the books less the bundle discount, and the postage (the payout at payment). */
export function sellerEarnings(
  parts: Pick<OrderParts, 'itemsMinor' | 'bundleDiscountMinor' | 'postageMinor'>,
): number {
  return parts.itemsMinor - parts.bundleDiscountMinor + parts.postageMinor;
}

/** The books' subtotal after the seller's bundle discount (what WELCOME20, promotions and protection apply to). */
export function discountedSubtotal(parts: Pick<OrderParts, 'itemsMinor' | 'bundleDiscountMinor'>): number {
  return parts.itemsMinor - parts.bundleDiscountMinor;
}

/** A payment as stored: what was taken and what has been given back. */
export interface StoredPayment {
  amount_minor: number;
  refunded_minor: number;
}

/** What is still on a payment to give back. */
export function leftOnPayment(payment: StoredPayment): number {
  return payment.amount_minor - payment.refunded_minor;
}

/** A seller's earnings for one order as stored (the `payouts` row). */
export interface StoredEarnings {
  amount_minor: number;
  reversed_minor: number;
  status: string;
}

/** What is left of the seller's earnings for an order: nothing once cancelled, else what refunds did not take back. */
export function earningsLeft(earnings: StoredEarnings): number {
  return earnings.status === 'cancelled' ? 0 : earnings.amount_minor - earnings.reversed_minor;
}

/** What a transfer to the seller's account still carries: what was sent less what was taken back. */
export function transferLeft(transfer: { amount_minor: number; reversed_minor: number }): number {
  return transfer.amount_minor - transfer.reversed_minor;
}

/** What a seller owes Reshelf: a balance below zero at the provider (a refund taken back after payout). */
export function owedOf(balanceMinor: number): number {
  return Math.max(0, -balanceMinor);
}

/** Sums amounts (the one way to add up money outside SQL). */
export function sum(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += amount;
  return total;
}
