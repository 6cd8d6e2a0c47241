import {
  type DeliveryMethod,
  formatPence,
  type PostageBand,
  postageLineWords,
  type Quote,
  WELCOME_GIFT,
} from '@reshelf/contracts';

type Priced = Pick<
  Quote,
  'itemMinor' | 'postageMinor' | 'protectionMinor' | 'protectionVatMinor' | 'discountMinor' | 'totalMinor'
> & {
  discountCode: string | null;
  discountLabel?: string | null;
  /** The parcel's band and how it comes, when known (an order before issue 37 has neither). */
  parcel?: { band: PostageBand; method: DeliveryMethod | null } | null;
  /** A basket order's bundle discount off the books, and how many books it is for. */
  bundleDiscountMinor?: number;
  bookCount?: number;
};

/** What a discount is: the quote says; an order knows only its code (WELCOME20 or a promotion). */
export function discountText(code: string | null, label: string | null | undefined): string {
  if (label) return `${code ?? 'Discount'}: ${label}`;
  if (code === WELCOME_GIFT.code) return `${code}: ${WELCOME_GIFT.discountPercent}% off your first order`;
  return code ? `Promo code ${code}` : 'Discount';
}

/**
 * What the buyer pays, line by line (brief §4): the item, postage for the parcel and method, buyer
 * protection with the VAT it includes, the discount (WELCOME20 or a promo code) when the server
 * applied one, the total; and, after a refund, what went back.
 */
export function PriceLines({
  quote,
  itemLabel = 'Item',
  refundedMinor = 0,
  refundedLabel = 'Refunded to you',
}: {
  quote: Priced;
  itemLabel?: string;
  refundedMinor?: number;
  refundedLabel?: string;
}) {
  return (
    <dl className="flex flex-col gap-2 text-sm" data-testid="price-lines">
      <div className="flex justify-between gap-4">
        <dt>{itemLabel}</dt>
        <dd className="shrink-0 whitespace-nowrap tabular-nums" data-testid="item-price">
          {formatPence(quote.itemMinor)}
        </dd>
      </div>
      {quote.bundleDiscountMinor ? (
        <div className="flex justify-between gap-4 text-emerald-800" data-testid="bundle-discount-line">
          <dt>Bundle discount{quote.bookCount ? ` (${quote.bookCount} books)` : ''}</dt>
          <dd className="shrink-0 whitespace-nowrap tabular-nums">
            −{formatPence(quote.bundleDiscountMinor)}
          </dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4">
        <dt>
          Postage
          {quote.parcel ? (
            <span className="block text-xs text-ink-muted" data-testid="postage-words">
              {postageLineWords(quote.parcel.band, quote.parcel.method)}
            </span>
          ) : null}
        </dt>
        <dd className="shrink-0 whitespace-nowrap tabular-nums" data-testid="postage">
          {formatPence(quote.postageMinor)}
        </dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt>
          Buyer protection
          <span className="block text-xs text-ink-muted">
            includes VAT of {formatPence(quote.protectionVatMinor)}
          </span>
        </dt>
        <dd className="shrink-0 whitespace-nowrap tabular-nums" data-testid="protection-fee">
          {formatPence(quote.protectionMinor)}
        </dd>
      </div>
      {quote.discountMinor > 0 ? (
        <div className="flex justify-between gap-4 text-emerald-800" data-testid="discount-line">
          <dt>{discountText(quote.discountCode, quote.discountLabel)}</dt>
          <dd className="shrink-0 whitespace-nowrap tabular-nums">−{formatPence(quote.discountMinor)}</dd>
        </div>
      ) : null}
      <div className="mt-2 flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
        <dt>Total</dt>
        <dd className="shrink-0 whitespace-nowrap tabular-nums" data-testid="total">
          {formatPence(quote.totalMinor)}
        </dd>
      </div>
      {refundedMinor > 0 ? (
        <div className="flex justify-between gap-4 font-semibold text-moss" data-testid="refunded-line">
          <dt>{refundedLabel}</dt>
          <dd className="shrink-0 whitespace-nowrap tabular-nums">−{formatPence(refundedMinor)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
