/**
 * "Buy more from this seller and save" on a seller's page and a charity's shop page: their
 * bundle discount tiers (if they set any) and why a pile of their books costs less in one
 * basket: one parcel, one postage, one buyer protection fee. Their books follow on the page.
 */
import type { BundleTier } from '@reshelf/contracts';
import { Package, ShoppingBasket, Tag } from 'lucide-react';
import { Link } from 'react-router-dom';
import { booksWord } from './basket-view.ts';

export function BuyMoreFromSeller({
  name,
  tiers,
  activeListings,
}: {
  name: string;
  tiers: readonly BundleTier[];
  activeListings: number;
}) {
  if (activeListings < 2) return null;
  const sorted = [...tiers].sort((a, b) => a.minBooks - b.minBooks);
  return (
    <section
      aria-labelledby="buy-more-title"
      className="mb-8 rounded-xl border border-brand/25 bg-brand-soft/40 p-5 sm:p-6"
      data-testid="buy-more"
    >
      <h2 id="buy-more-title" className="flex items-center gap-2 text-xl font-semibold">
        <ShoppingBasket aria-hidden="true" className="size-5 text-brand" />
        Buy more from this seller and save
      </h2>
      {sorted.length ? (
        <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${name}’s bundle discounts`}>
          {sorted.map((tier) => (
            <li
              key={tier.minBooks}
              className="inline-flex items-center gap-1.5 rounded-full border border-brand/30 bg-paper px-3 py-1.5 text-sm font-semibold text-ink"
              data-testid="buy-more-tier"
            >
              <Tag aria-hidden="true" className="size-3.5 text-brand" />
              {booksWord(tier.minBooks)}: {tier.percent}% off
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-3 flex items-start gap-2 text-sm text-ink-soft">
        <Package aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
        <span>
          Add their books below to your basket: everything from {name} comes in one parcel, so you pay postage
          and the buyer protection fee once
          {sorted.length
            ? `, and they take ${sorted[0]?.percent}% off from ${booksWord(sorted[0]?.minBooks ?? 2)}`
            : ''}
          .{' '}
          <Link to="/basket" className="font-semibold text-brand underline">
            Your basket
          </Link>
        </span>
      </p>
    </section>
  );
}
