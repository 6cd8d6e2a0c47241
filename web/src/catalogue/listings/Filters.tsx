import {
  BOOK_FORMAT_LABELS,
  BOOK_FORMATS,
  type BookFormat,
  CONDITION_LABELS,
  CONDITIONS,
  COPY_ATTRIBUTE_LABELS,
  LISTING_SORT_LABELS,
  LISTING_SORTS,
  type ListingSort,
  SHOWN_PRICE_WORDS,
} from '@reshelf/contracts';
import { SlidersHorizontal, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { activeFilterCount, type ListingParams, poundsToPence, withChanges } from './listing-params.ts';

export type FixedFilter = 'category' | 'genre' | 'charity' | 'seller';

const fieldClass =
  'h-10 w-full rounded-md border border-line bg-white px-3 text-sm text-ink shadow-sm focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand';

/**
 * Filters for a listings page. Every change goes straight into the URL (which is the state);
 * prices wait for "Apply" and are checked first. On small screens the panel folds away.
 */
/**
 * A value that follows the URL but changes at once when a person changes it: the router
 * updates the URL a moment later, and a control must not flick back in between.
 */
function useFollow<T>(value: T, key: string): [T, (next: T) => void] {
  const [local, setLocal] = useState(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the value's identity.
  useEffect(() => setLocal(value), [key]);
  return [local, setLocal];
}

export function Filters({
  params,
  fixed = [],
  showFollowing = false,
}: {
  params: ListingParams;
  fixed?: FixedFilter[];
  /** The "Following" filter: on /listings, for a signed-in member. */
  showFollowing?: boolean;
}) {
  const [search, setSearch] = useSearchParams();
  const id = useId();
  const [conditions, setConditions] = useFollow(params.conditions, params.conditions.join(','));
  const [category, setCategory] = useFollow(params.category ?? '', params.category ?? '');
  const [genre, setGenre] = useFollow(params.genre ?? '', params.genre ?? '');
  const [charityOnly, setCharityOnly] = useFollow(params.charityOnly, String(params.charityOnly));
  const [following, setFollowing] = useFollow(params.following, String(params.following));
  const [format, setFormat] = useFollow(params.advanced.format ?? '', params.advanced.format ?? '');
  const [firstEdition, setFirstEdition] = useFollow(
    params.advanced.firstEdition ?? false,
    String(params.advanced.firstEdition),
  );
  const [signed, setSigned] = useFollow(params.advanced.signed ?? false, String(params.advanced.signed));
  const categories = trpc.catalogue.taxonomy.public.categories.useQuery(undefined, {
    enabled: !fixed.includes('category'),
  });
  const genres = trpc.catalogue.taxonomy.public.genres.useQuery(undefined, {
    enabled: !fixed.includes('genre'),
  });
  const count = activeFilterCount(params);

  const change = (changes: Record<string, string | null | undefined>) =>
    setSearch(withChanges(search, changes), { preventScrollReset: true });

  const toggleCondition = (condition: string, checked: boolean) => {
    const next = new Set<string>(conditions);
    if (checked) next.add(condition);
    else next.delete(condition);
    const list = CONDITIONS.filter((c) => next.has(c));
    setConditions(list);
    change({ condition: list.join(',') || null });
  };

  return (
    <details
      className="group/filters rounded-xl border border-line bg-paper shadow-card lg:pointer-events-auto"
      data-testid="filters"
      // Open by default on large screens; a person toggles it on small ones.
      ref={(node) => {
        if (node && !node.dataset.initialised) {
          node.dataset.initialised = '1';
          node.open = window.matchMedia('(min-width: 1024px)').matches;
        }
      }}
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <SlidersHorizontal aria-hidden="true" className="size-4 text-brand" />
          Filters
          {count ? (
            <span className="rounded-full bg-brand px-2 py-0.5 text-xs font-semibold text-brand-foreground">
              {count}
            </span>
          ) : null}
        </span>
        <span className="text-sm font-normal text-ink-muted group-open/filters:hidden">Show</span>
        <span className="hidden text-sm font-normal text-ink-muted group-open/filters:inline">Hide</span>
      </summary>

      <div className="flex flex-col gap-6 border-t border-line px-4 pt-4 pb-5">
        {!fixed.includes('category') ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-category`} className="text-sm font-semibold">
              Category
            </label>
            <select
              id={`${id}-category`}
              className={fieldClass}
              value={category}
              onChange={(event) => {
                setCategory(event.target.value);
                change({ category: event.target.value || null });
              }}
            >
              <option value="">All categories</option>
              {categories.data?.map((category) => (
                <option key={category.slug} value={category.slug}>
                  {category.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}

        {!fixed.includes('genre') ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-genre`} className="text-sm font-semibold">
              Genre
            </label>
            <select
              id={`${id}-genre`}
              className={fieldClass}
              value={genre}
              onChange={(event) => {
                setGenre(event.target.value);
                change({ genre: event.target.value || null });
              }}
            >
              <option value="">All genres</option>
              {genres.data?.map((genre) => (
                <option key={genre.slug} value={genre.slug}>
                  {genre.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-semibold">Condition</legend>
          {CONDITIONS.map((condition) => (
            <label key={condition} className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-brand"
                checked={conditions.includes(condition)}
                onChange={(event) => toggleCondition(condition, event.target.checked)}
              />
              {CONDITION_LABELS[condition]}
            </label>
          ))}
        </fieldset>

        <PriceFilter params={params} onApply={(minPrice, maxPrice) => change({ minPrice, maxPrice })} />

        {/* Over copies: the same address keys as advanced search's (listing-params). */}
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-format`} className="text-sm font-semibold">
            Format
          </label>
          <select
            id={`${id}-format`}
            className={fieldClass}
            value={format}
            onChange={(event) => {
              setFormat(event.target.value as BookFormat | '');
              change({ format: event.target.value || null });
            }}
          >
            <option value="">Any format</option>
            {BOOK_FORMATS.map((value) => (
              <option key={value} value={value}>
                {BOOK_FORMAT_LABELS[value]}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1.5 text-sm font-semibold">Collectable</legend>
          <label className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-brand"
              data-testid="first-edition-filter"
              checked={firstEdition}
              onChange={(event) => {
                setFirstEdition(event.target.checked);
                change({ firstEdition: event.target.checked ? '1' : null });
              }}
            />
            {COPY_ATTRIBUTE_LABELS.firstEdition}
          </label>
          <label className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-brand"
              data-testid="signed-filter"
              checked={signed}
              onChange={(event) => {
                setSigned(event.target.checked);
                change({ signed: event.target.checked ? '1' : null });
              }}
            />
            {COPY_ATTRIBUTE_LABELS.signed}
          </label>
        </fieldset>

        {!fixed.includes('charity') ? (
          <label className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm font-semibold">
            <input
              type="checkbox"
              className="size-4 accent-brand"
              checked={charityOnly}
              onChange={(event) => {
                setCharityOnly(event.target.checked);
                change({ charity: event.target.checked ? '1' : null });
              }}
            />
            Charity sellers only
          </label>
        ) : null}

        {showFollowing ? (
          <label className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm font-semibold">
            <input
              type="checkbox"
              className="size-4 accent-brand"
              data-testid="following-filter"
              checked={following}
              onChange={(event) => {
                setFollowing(event.target.checked);
                change({ following: event.target.checked ? '1' : null });
              }}
            />
            Following: sellers, authors and genres you follow
          </label>
        ) : null}

        {count ? (
          <Button
            variant="ghost"
            size="sm"
            className="self-start"
            onClick={() =>
              change({
                category: null,
                genre: null,
                condition: null,
                minPrice: null,
                maxPrice: null,
                charity: null,
                following: null,
                format: null,
                firstEdition: null,
                signed: null,
              })
            }
          >
            <X aria-hidden="true" />
            Clear filters
          </Button>
        ) : null}
      </div>
    </details>
  );
}

function PriceFilter({
  params,
  onApply,
}: {
  params: ListingParams;
  onApply: (min: string | null, max: string | null) => void;
}) {
  const id = useId();
  const [min, setMin] = useState(params.minPrice);
  const [max, setMax] = useState(params.maxPrice);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setMin(params.minPrice);
    setMax(params.maxPrice);
  }, [params.minPrice, params.maxPrice]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minPence = poundsToPence(min);
    const maxPence = poundsToPence(max);
    if (min.trim() && minPence === undefined)
      return setError('Enter the lowest price in pounds, like 2 or 4.50');
    if (max.trim() && maxPence === undefined)
      return setError('Enter the highest price in pounds, like 10 or 12.99');
    if (minPence !== undefined && maxPence !== undefined && minPence > maxPence) {
      return setError('The lowest price must not be more than the highest');
    }
    setError(null);
    onApply(min.trim() || null, max.trim() || null);
  };

  const errorId = `${id}-error`;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-legend`}>
      <p id={`${id}-legend`} className="mb-1.5 text-sm font-semibold">
        Price
      </p>
      <div className="flex items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-min`} className="text-xs text-ink-muted">
            From (£)
          </label>
          <input
            id={`${id}-min`}
            name="minPrice"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            className={cn(fieldClass, error && 'border-destructive')}
            value={min}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setMin(event.target.value)}
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={`${id}-max`} className="text-xs text-ink-muted">
            To (£)
          </label>
          <input
            id={`${id}-max`}
            name="maxPrice"
            inputMode="decimal"
            autoComplete="off"
            placeholder="Any"
            className={cn(fieldClass, error && 'border-destructive')}
            value={max}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => setMax(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline" className="h-10">
          Apply
        </Button>
      </div>
      {/* The bounds are on the price the cards show (decision 0071). */}
      <p className="mt-1.5 text-xs text-ink-muted">{SHOWN_PRICE_WORDS.includes}, as on the cards</p>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export function SortSelect({ value, hasQuery }: { value: ListingSort; hasQuery: boolean }) {
  const [search, setSearch] = useSearchParams();
  const id = useId();
  const sorts = LISTING_SORTS.filter((sort) => hasQuery || sort !== 'relevance');
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm whitespace-nowrap text-ink-muted">
        Sort by
      </label>
      <select
        id={id}
        className={cn(fieldClass, 'w-auto')}
        value={value}
        onChange={(event) =>
          setSearch(withChanges(search, { sort: event.target.value }), { preventScrollReset: true })
        }
      >
        {sorts.map((sort) => (
          <option key={sort} value={sort}>
            {LISTING_SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}
