/**
 * One parcel's price, line by line: the books, the seller's bundle discount, postage for the
 * one parcel, buyer protection with the VAT it includes, WELCOME20 or a promo code, the total,
 * and what buying them together saves against one order each.
 */
import {
  type DeliveryMethod,
  formatPence,
  type GroupQuote,
  type PostageBand,
  postageLineWords,
} from '@reshelf/contracts';
import { discountText } from '../checkout/PriceLines.tsx';
import { booksWord } from './basket-view.ts';

type Priced = Pick<
  GroupQuote,
  | 'bookCount'
  | 'itemSubtotalMinor'
  | 'bundlePercent'
  | 'bundleDiscountMinor'
  | 'postageMinor'
  | 'protectionMinor'
  | 'protectionVatMinor'
  | 'discountMinor'
  | 'discountCode'
  | 'discountLabel'
  | 'totalMinor'
  | 'savingMinor'
>;

/** The one parcel's band and the method its postage is for. */
export interface ParcelWords {
  band: PostageBand;
  method: DeliveryMethod;
}

export function GroupPriceLines({ quote, parcel }: { quote: Priced; parcel: ParcelWords }) {
  const saving = quote.savingMinor;
  return (
    <dl className="flex flex-col gap-2 text-sm" data-testid="group-price-lines">
      <div className="flex justify-between gap-4">
        <dt>Books ({quote.bookCount})</dt>
        <dd className="shrink-0 tabular-nums" data-testid="group-items">
          {formatPence(quote.itemSubtotalMinor)}
        </dd>
      </div>
      {quote.bundleDiscountMinor > 0 ? (
        <div className="flex justify-between gap-4 text-emerald-800" data-testid="bundle-discount">
          <dt>
            Bundle discount ({booksWord(quote.bookCount)}: {quote.bundlePercent}% off)
          </dt>
          <dd className="shrink-0 tabular-nums">−{formatPence(quote.bundleDiscountMinor)}</dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4">
        <dt>
          Postage (one parcel)
          <span className="block text-xs text-ink-muted" data-testid="group-postage-words">
            {postageLineWords(parcel.band, parcel.method)}
          </span>
        </dt>
        <dd className="shrink-0 tabular-nums" data-testid="group-postage">
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
        <dd className="shrink-0 tabular-nums" data-testid="group-protection">
          {formatPence(quote.protectionMinor)}
        </dd>
      </div>
      {quote.discountMinor > 0 ? (
        <div className="flex justify-between gap-4 text-emerald-800" data-testid="group-discount">
          <dt>{discountText(quote.discountCode, quote.discountLabel)}</dt>
          <dd className="shrink-0 tabular-nums">−{formatPence(quote.discountMinor)}</dd>
        </div>
      ) : null}
      <div className="mt-1 flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
        <dt>Total for this parcel</dt>
        <dd className="shrink-0 tabular-nums" data-testid="group-total">
          {formatPence(quote.totalMinor)}
        </dd>
      </div>
      {saving > 0 && quote.bookCount > 1 ? (
        <p className="text-right text-sm font-semibold text-moss" data-testid="group-saving">
          You save {formatPence(saving)} against {quote.bookCount} separate orders
        </p>
      ) : null}
    </dl>
  );
}
