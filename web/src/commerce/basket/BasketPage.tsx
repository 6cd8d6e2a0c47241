/**
 * /basket: the books grouped by seller, one parcel (and one order) each. Signed in, the
 * server prices every group (basket.member.quote): item subtotal, the seller's bundle discount,
 * postage for the parcel, buyer protection with its VAT, WELCOME20 or a promo code, the group's
 * total and the whole basket's; a book sold or withdrawn meanwhile is shown as gone, to remove.
 * Signed out, the visitor's basket from this browser, priced as far as can be known before
 * signing in (no bundle discount or code), with "Sign in to check out".
 */
import {
  type BasketGroup,
  type BasketItem,
  type BasketQuote,
  formatPence,
  type GroupQuote,
  paymentTotal,
  photoThumbUrl,
} from '@reshelf/contracts';
import { Package, Sparkles, Tag, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BookCover } from '../../components/BookCover.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { EmptyState, QueryView } from '../../kit/index.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { BundleOfferButton } from './BundleOffer.tsx';
import {
  booksWord,
  groupVisitorBasket,
  nextTierHint,
  sellerPagePath,
  tiersText,
  type VisitorGroup,
} from './basket-view.ts';
import { GroupPriceLines } from './GroupPriceLines.tsx';
import { useMemberBasketReady, useRemoveFromBasket, useVisitorBasket } from './hooks.ts';
import { useBasketPromo } from './promo.ts';

export function BasketPage() {
  usePageMeta('Your basket', 'Books from one seller travel in one parcel, with one postage.');
  const session = useSession();
  return (
    <>
      <PageHeader
        title="Your basket"
        description="Books from the same seller come in one parcel: you pay postage once, and many sellers take a little off for buying several."
      />
      <PageBody>
        {session.status === 'signed-in' ? (
          <MemberBasket />
        ) : session.status === 'signed-out' ? (
          <VisitorBasket />
        ) : (
          <BasketSkeleton />
        )}
      </PageBody>
    </>
  );
}

function BasketSkeleton() {
  return (
    <div role="status" aria-label="Loading your basket" className="flex flex-col gap-4">
      <Skeleton className="h-48 w-full rounded-xl" />
      <Skeleton className="h-32 w-full rounded-xl" />
    </div>
  );
}

function EmptyBasket() {
  return (
    <div className="flex flex-col items-start gap-4" data-testid="basket-empty">
      <EmptyState>Your basket is empty. Add books from their pages and buy them together.</EmptyState>
      <Button asChild variant="brand">
        <Link to="/listings">Browse books</Link>
      </Button>
    </div>
  );
}

/** The listing ids a quote is asked for: the books that can still be bought. */
export function availableIds(groups: readonly BasketGroup[]): string[] {
  return groups.flatMap((group) =>
    group.items.filter((item) => item.state === 'available').map((item) => item.id),
  );
}

function MemberBasket() {
  const ready = useMemberBasketReady();
  const basket = trpc.commerce.basket.member.list.useQuery(undefined, { staleTime: 0, enabled: ready });
  const [promoCode, setPromoCode] = useBasketPromo();
  const ids = basket.data ? availableIds(basket.data.groups) : [];
  const quote = trpc.commerce.basket.member.quote.useQuery(
    { listingIds: ids, promoCode },
    { enabled: ids.length > 0, placeholderData: (previous) => previous, retry: false },
  );
  return (
    <QueryView
      query={basket}
      pending={<BasketSkeleton />}
      empty={<EmptyBasket />}
      isEmpty={(data) => data.groups.length === 0}
    >
      {(data) => (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
          <div className="flex min-w-0 flex-col gap-6">
            {data.groups.map((group) => (
              <MemberGroup
                key={group.key}
                group={group}
                quote={quote.data?.groups.find((priced) => priced.key === group.key) ?? null}
                quoting={quote.isPending && ids.length > 0}
              />
            ))}
          </div>
          <BasketSummary
            quote={ids.length > 0 ? (quote.data ?? null) : null}
            problem={quote.isError ? quote.error.message : null}
            checking={quote.isFetching}
            onPromo={setPromoCode}
          />
        </div>
      )}
    </QueryView>
  );
}

function GroupFrame({
  sellerName,
  sellerHref,
  charity,
  count,
  tiers,
  children,
  testId = 'basket-group',
  groupKey,
}: {
  sellerName: string;
  sellerHref: string | null;
  charity: boolean;
  count: number;
  tiers: string;
  children: React.ReactNode;
  testId?: string;
  groupKey: string;
}) {
  return (
    <section
      aria-label={`From ${sellerName}`}
      className="rounded-xl border border-line bg-paper p-4 shadow-card sm:p-5"
      data-testid={testId}
      data-group={groupKey}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-line pb-3">
        <h2 className="min-w-0 font-serif text-xl font-semibold break-words">
          {sellerHref ? (
            <Link to={sellerHref} className="underline-offset-4 hover:text-brand hover:underline">
              {sellerName}
            </Link>
          ) : (
            sellerName
          )}
          {charity ? (
            <span className="ml-2 align-middle text-xs font-semibold text-moss uppercase">Charity</span>
          ) : null}
        </h2>
        <p className="flex items-center gap-1.5 text-sm text-ink-muted">
          <Package aria-hidden="true" className="size-4" />
          {booksWord(count)}, one parcel
        </p>
      </header>
      {tiers ? (
        <p className="mt-3 flex items-start gap-2 text-sm text-ink-soft" data-testid="group-tiers">
          <Tag aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
          <span>
            Bundle discount: <strong className="text-ink">{tiers}</strong>
          </span>
        </p>
      ) : null}
      {children}
    </section>
  );
}

function MemberGroup({
  group,
  quote,
  quoting,
}: {
  group: BasketGroup;
  quote: GroupQuote | null;
  quoting: boolean;
}) {
  const available = group.items.filter((item) => item.state === 'available');
  const hint = available.length > 0 ? nextTierHint(group.tiers, available.length, group.sellerName) : null;
  const sellerHref = sellerPagePath(group);
  return (
    <GroupFrame
      sellerName={group.sellerName}
      sellerHref={sellerHref}
      charity={group.charity !== null}
      count={available.length}
      tiers={tiersText(group.tiers)}
      groupKey={group.key}
    >
      <ul className="mt-2 divide-y divide-line">
        {group.items.map((item) => (
          <MemberItem key={item.id} item={item} />
        ))}
      </ul>
      {hint ? (
        <p
          className="mt-3 flex items-start gap-2 rounded-lg bg-brand-soft/60 p-3 text-sm text-ink-soft"
          data-testid="tier-hint"
        >
          <Sparkles aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand" />
          <span>
            {hint}.{' '}
            <Link to={sellerHref} className="font-semibold text-brand underline">
              See their books
            </Link>
          </span>
        </p>
      ) : null}
      {available.length > 0 ? (
        <div className="mt-4 border-t border-line pt-4">
          {quote ? (
            <GroupPriceLines quote={quote} parcel={quote.delivery} />
          ) : quoting ? (
            <Skeleton className="h-32 w-full rounded-lg" />
          ) : null}
          <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <Button asChild variant="outline" className="h-auto min-h-10 py-2 whitespace-normal sm:flex-1">
              <Link to={`/checkout/basket?group=${encodeURIComponent(group.key)}`}>
                Check out {group.sellerName} only
              </Link>
            </Button>
            {available.length >= 2 ? <BundleOfferButton group={group} quote={quote} /> : null}
          </div>
        </div>
      ) : (
        <p className="mt-3 text-sm text-ink-muted">Nothing from {group.sellerName} can be bought now.</p>
      )}
    </GroupFrame>
  );
}

function ItemRow({
  title,
  authors,
  coverUrl,
  isbn13,
  slug,
  priceMinor,
  gone,
  note,
  onRemove,
  removing,
}: {
  title: string;
  authors: string[];
  coverUrl: string | null;
  isbn13?: string | null;
  slug: string;
  priceMinor: number;
  gone: string | null;
  note?: string | null;
  onRemove: () => void;
  removing: boolean;
}) {
  return (
    <li
      className="flex items-start gap-3 py-3"
      data-testid="basket-item"
      data-state={gone ? 'gone' : 'available'}
    >
      <div className={cn('w-12 shrink-0 sm:w-14', gone && 'opacity-50 grayscale')}>
        <BookCover title={title} authors={authors} isbn13={isbn13 ?? null} coverUrl={coverUrl} size="thumb" />
      </div>
      <div className="min-w-0 flex-1">
        <p className={cn('font-semibold break-words', gone && 'text-ink-muted line-through')}>
          <Link to={`/listing/${slug}`} className="underline-offset-4 hover:text-brand hover:underline">
            {title}
          </Link>
        </p>
        {authors.length ? <p className="text-sm text-ink-muted">{authors.join(', ')}</p> : null}
        {note ? <p className="text-xs text-ink-muted">{note}</p> : null}
        {gone ? (
          <p className="mt-1 text-sm font-semibold text-destructive" data-testid="basket-item-gone">
            {gone}
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1">
        <span className={cn('font-semibold tabular-nums', gone && 'text-ink-muted line-through')}>
          {formatPence(priceMinor)}
        </span>
        <Button
          variant="link"
          size="sm"
          className="h-auto px-0 text-sm"
          disabled={removing}
          onClick={onRemove}
        >
          <Trash2 aria-hidden="true" className="size-3.5" />
          Remove <span className="sr-only">{title}</span>
        </Button>
      </div>
    </li>
  );
}

const GONE_TEXT: Record<BasketItem['state'], string | null> = {
  available: null,
  gone: 'No longer for sale: it sold or was withdrawn',
  own: 'Your own book: you can’t buy it',
};

function MemberItem({ item }: { item: BasketItem }) {
  const { removeListing, pending } = useRemoveFromBasket();
  return (
    <ItemRow
      title={item.title}
      authors={item.authors}
      coverUrl={item.photoUrl ? photoThumbUrl(item.photoUrl) : item.coverUrl}
      isbn13={item.isbn13}
      slug={item.slug}
      priceMinor={item.priceMinor}
      gone={GONE_TEXT[item.state]}
      onRemove={() => removeListing(item.id)}
      removing={pending}
    />
  );
}

function BasketSummary({
  quote,
  problem,
  checking,
  onPromo,
}: {
  quote: BasketQuote | null;
  problem: string | null;
  checking: boolean;
  onPromo: (code: string | null) => void;
}) {
  const parcels = quote?.groups.length ?? 0;
  return (
    <aside
      aria-label="Basket total"
      className="flex flex-col gap-4 rounded-xl border border-line bg-paper p-5 shadow-card lg:sticky lg:top-28"
      data-testid="basket-summary"
    >
      <h2 className="text-lg font-semibold">Order summary</h2>
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {quote ? (
        <>
          <dl className="flex flex-col gap-2 text-sm">
            {quote.groups.map((group) => (
              <div key={group.key} className="flex justify-between gap-4">
                <dt className="min-w-0 break-words">
                  {group.sellerName}
                  <span className="block text-xs text-ink-muted">
                    {booksWord(group.bookCount)}, one parcel
                  </span>
                </dt>
                <dd className="shrink-0 tabular-nums">{formatPence(group.totalMinor)}</dd>
              </div>
            ))}
            <div className="mt-1 flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
              <dt>Total</dt>
              <dd className="tabular-nums" data-testid="basket-total">
                {formatPence(quote.totalMinor)}
              </dd>
            </div>
          </dl>
          <PromoForm quote={quote} checking={checking} onPromo={onPromo} />
          <Button asChild variant="cta" size="lg">
            <Link to="/checkout/basket">
              {parcels > 1 ? `Check out all ${parcels} parcels` : 'Check out'}
            </Link>
          </Button>
          <p className="text-xs text-ink-muted">
            One payment for everything; each seller gets their own order and sends one parcel.
          </p>
        </>
      ) : problem ? null : (
        <Skeleton className="h-32 w-full rounded-lg" />
      )}
    </aside>
  );
}

export function PromoForm({
  quote,
  checking,
  onPromo,
}: {
  quote: BasketQuote;
  checking: boolean;
  onPromo: (code: string | null) => void;
}) {
  const [draft, setDraft] = useState('');
  const outcome = quote.promo;
  if (outcome && outcome.status !== 'refused') {
    return (
      <div className="flex flex-col gap-1 text-sm" data-testid="promo-applied">
        <div className="flex items-center justify-between gap-3">
          <p className="min-w-0 break-words">
            Promo code <strong>{outcome.code}</strong>
            {outcome.status === 'applied' ? ' applied' : ' not used'}
          </p>
          <Button variant="link" size="sm" disabled={checking} onClick={() => onPromo(null)}>
            Remove <span className="sr-only">promo code {outcome.code}</span>
          </Button>
        </div>
        {outcome.message ? <p className="text-ink-soft">{outcome.message}</p> : null}
      </div>
    );
  }
  return (
    <form
      noValidate
      aria-label="Promo code"
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        const code = draft.trim().toUpperCase();
        if (code) onPromo(code);
      }}
    >
      <label htmlFor="basket-promo" className="text-sm font-semibold">
        Promo code <span className="font-normal text-ink-muted">(optional)</span>
      </label>
      <div className="flex gap-2">
        <Input
          id="basket-promo"
          className="min-w-0 flex-1 uppercase"
          autoComplete="off"
          maxLength={40}
          value={draft}
          aria-invalid={outcome?.status === 'refused' || undefined}
          aria-describedby={outcome?.message ? 'basket-promo-error' : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        <Button type="submit" variant="outline" disabled={checking}>
          {checking ? 'Checking…' : 'Apply'}
        </Button>
      </div>
      {outcome?.message ? (
        <p id="basket-promo-error" className="text-sm text-destructive">
          {outcome.message}
        </p>
      ) : null}
    </form>
  );
}

// Signed out ----------------------------------------------------------------------------------

function VisitorBasket() {
  const entries = useVisitorBasket();
  const location = useLocation();
  const { removeListing } = useRemoveFromBasket();
  // Each seller's tiers (one small public query each), so the estimate has their bundle discount.
  const owners = groupVisitorBasket(entries);
  const tiers = trpc.useQueries((t) =>
    owners.map((group) =>
      t.commerce.basket.public.tiers(
        group.charitySlug ? { charitySlug: group.charitySlug } : { sellerId: group.sellerId },
      ),
    ),
  );
  const groups = groupVisitorBasket(entries, (owner) => {
    const index = owners.findIndex(
      (group) => group.sellerId === owner.sellerId && group.charitySlug === owner.charitySlug,
    );
    return tiers[index]?.data ?? [];
  });
  if (entries.length === 0) return <EmptyBasket />;
  const total = paymentTotal(groups.map((group) => group.estimate));
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      <div className="flex min-w-0 flex-col gap-6">
        {groups.map((group) => (
          <VisitorGroupCard key={group.key} group={group} onRemove={removeListing} />
        ))}
      </div>
      <aside
        aria-label="Basket total"
        className="flex flex-col gap-4 rounded-xl border border-line bg-paper p-5 shadow-card lg:sticky lg:top-28"
        data-testid="basket-summary"
      >
        <h2 className="text-lg font-semibold">Order summary</h2>
        <dl className="flex justify-between gap-4 text-base font-semibold">
          <dt>Total before any code</dt>
          <dd className="tabular-nums" data-testid="basket-total">
            {formatPence(total)}
          </dd>
        </dl>
        <p className="text-sm text-ink-soft">
          Sign in to check out. Your basket comes with you, and WELCOME20 on your first order or a promo code
          is taken off then.
        </p>
        <Button asChild variant="cta" size="lg">
          <Link to={loginPath(pathOf(location))}>Sign in to check out</Link>
        </Button>
      </aside>
    </div>
  );
}

function VisitorGroupCard({
  group,
  onRemove,
}: {
  group: VisitorGroup;
  onRemove: (listingId: string) => void;
}) {
  const estimate = group.estimate;
  return (
    <GroupFrame
      sellerName={group.sellerName}
      sellerHref={null}
      charity={group.charity}
      count={group.entries.length}
      tiers={tiersText(group.tiers)}
      groupKey={group.key}
    >
      <ul className="mt-2 divide-y divide-line">
        {group.entries.map((entry) => (
          <ItemRow
            key={entry.listingId}
            title={entry.title}
            authors={entry.authors}
            coverUrl={entry.coverUrl}
            isbn13={entry.isbn13}
            slug={entry.slug}
            priceMinor={entry.priceMinor}
            gone={null}
            onRemove={() => onRemove(entry.listingId)}
            removing={false}
          />
        ))}
      </ul>
      <div className="mt-4 border-t border-line pt-4">
        <GroupPriceLines
          quote={{
            ...estimate,
            discountCode: null,
            discountLabel: null,
            savingMinor: 0,
          }}
          parcel={{ band: estimate.parcel.band, method: estimate.method }}
        />
      </div>
    </GroupFrame>
  );
}
