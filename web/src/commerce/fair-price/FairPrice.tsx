/**
 * A fair price from Reshelf's own sales (issue 38, decision 0091): the sell wizard's suggestion
 * with its band and the sales behind it, the bulk upload's line per row, and the buyer's
 * "typical price". Nothing is shown when there are not enough sales.
 */
import { type Condition, FAIR_PRICE_WORDS, type FairPrice } from '@reshelf/contracts';
import { Scale } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';

/** The sell wizard's price step: "Suggested £x · typical £y–£z for this edition in … · from n sales" and "Use £x". */
export function FairPriceSuggestion({
  bookId,
  condition,
  format,
  onUse,
}: {
  bookId: string | null | undefined;
  condition: Condition | null | undefined;
  format: string | null | undefined;
  onUse: (pence: number) => void;
}) {
  const query = trpc.commerce.fairPrice.suggest.useQuery(
    { bookId: bookId ?? '', condition: condition ?? 'good', format: format ?? null },
    { enabled: Boolean(bookId && condition), staleTime: 5 * 60_000 },
  );
  const price = query.data;
  if (!price || !condition) return null;
  return (
    <div
      className="flex flex-col gap-3 rounded-xl border border-moss/40 bg-moss-soft/40 p-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="fair-price"
    >
      <p className="flex gap-2 text-sm text-ink-soft">
        <Scale aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-moss" />
        <span data-testid="fair-price-text">{FAIR_PRICE_WORDS.suggestion(price, condition)}</span>
      </p>
      <Button
        variant="outline"
        size="sm"
        // Keeps the focus in the price field: its blur would show the field's error first and
        // move this button from under the pointer before the click lands.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => onUse(price.suggestionMinor)}
        data-testid="fair-price-use"
      >
        {FAIR_PRICE_WORDS.use(price)}
      </Button>
    </div>
  );
}

/** A bulk upload preview row's suggestion (the rows are asked for at once: useFairPrices). */
export function FairPriceLine({ price }: { price: FairPrice | null | undefined }) {
  if (!price) return null;
  return (
    <span className="text-xs text-moss" data-testid="fair-price-row">
      {FAIR_PRICE_WORDS.short(price)}
    </span>
  );
}

/** Each bulk upload report row's fair price (its copy's), in one request: by listing id. */
export function useListingFairPrices(listingIds: readonly string[]): Map<string, FairPrice | null> {
  const query = trpc.commerce.fairPrice.forListings.useQuery(
    { listingIds: [...listingIds] },
    { enabled: listingIds.length > 0, staleTime: 5 * 60_000 },
  );
  return new Map(listingIds.map((id, index) => [id, query.data?.[index] ?? null]));
}

/** A buyer on a listing page: "Typical price £x–£y in this condition", from this book's own sales. */
export function TypicalPrice({ listingSlug }: { listingSlug: string }) {
  const query = trpc.commerce.fairPrice.typical.useQuery({ listingSlug }, { staleTime: 5 * 60_000 });
  const price = query.data;
  if (!price) return null;
  return (
    <p className="mt-3 flex items-start gap-2 text-sm text-ink-soft" data-testid="typical-price">
      <Scale aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-moss" />
      <span>
        {FAIR_PRICE_WORDS.typical(price)}
        <span className="block text-xs text-ink-muted">{FAIR_PRICE_WORDS.typicalBasis(price)}</span>
      </span>
    </p>
  );
}

/** A book page (an edition chosen): its typical price in each condition that has one. */
export function TypicalPrices({ bookId }: { bookId: string }) {
  const query = trpc.commerce.fairPrice.typicalByCondition.useQuery({ bookId }, { staleTime: 5 * 60_000 });
  const rows = query.data ?? [];
  if (rows.length === 0) return null;
  return (
    <div className="mt-3 text-sm text-ink-soft" data-testid="typical-prices">
      <ul className="flex flex-col gap-1">
        {rows.map(({ condition, price }) => (
          <li key={condition} className="flex items-start gap-2">
            <Scale aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-moss" />
            <span>{FAIR_PRICE_WORDS.typicalIn(price, condition)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-ink-muted">{FAIR_PRICE_WORDS.typicalListBasis}</p>
    </div>
  );
}
