import type { SellerCard } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import { HeartHandshake, MapPin } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { BuyMoreFromSeller } from '../../commerce/index.ts';
import {
  FollowButton,
  ReportProfile,
  SellerRatingSummary,
  SellerReviewsSection,
  useSellerRatings,
} from '../../community/index.ts';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { SellerRating } from '../../components/rating.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { isRouteId } from '../../lib/route-ids.ts';
import { trpc } from '../../lib/trpc.ts';
import { ListingsBrowser } from '../listings/ListingsBrowser.tsx';

function memberSince(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  });
}

function sellerHref(seller: SellerCard): string {
  return seller.charity ? `/charity/${seller.charity.slug}` : `/seller/${seller.id}`;
}

export function DiscoverSellersPage() {
  usePageMeta('Discover sellers', 'Meet the readers and charity shops selling pre-loved books on Reshelf.');
  const sellers = trpc.catalogue.sellers.discover.useQuery({ limit: 48 });
  const ratings = useSellerRatings(sellers.data?.map((seller) => seller.id) ?? []);
  return (
    <>
      <PageHeader
        title="Discover sellers"
        description="Readers clearing their shelves and charities raising money with donated books, the most followed and most recently active first. Find a seller you like, follow them, and see everything they have."
      />
      <PageBody>
        {sellers.isPending ? (
          <div
            role="status"
            aria-label="Loading sellers"
            className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
          >
            {Array.from({ length: 6 }, (_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders.
              <Skeleton key={index} className="h-36 rounded-xl" />
            ))}
          </div>
        ) : sellers.isError ? (
          <QueryError what="the sellers" onRetry={() => sellers.refetch()} retrying={sellers.isFetching} />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="seller-list">
            {sellers.data.map((seller) => (
              <li key={seller.id}>
                <Link
                  to={sellerHref(seller)}
                  className="flex h-full flex-col gap-2 rounded-xl border border-line bg-paper p-5 shadow-card transition hover:border-ink/25 hover:shadow-card-hover"
                >
                  <span className="flex items-center gap-3">
                    <span
                      aria-hidden="true"
                      className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-soft font-serif text-lg font-semibold text-brand"
                    >
                      {seller.charity ? (
                        <HeartHandshake className="size-5" />
                      ) : (
                        seller.displayName.slice(0, 1)
                      )}
                    </span>
                    <span className="min-w-0">
                      <span className="block truncate font-serif text-lg font-semibold">
                        {seller.displayName}
                      </span>
                      {seller.town ? (
                        <span className="inline-flex items-center gap-1 text-sm text-ink-muted">
                          <MapPin aria-hidden="true" className="size-3.5" />
                          {seller.town}
                        </span>
                      ) : null}
                    </span>
                  </span>
                  {ratings[seller.id] ? <SellerRating rating={ratings[seller.id]!} /> : null}
                  {seller.bio ? (
                    <span className="line-clamp-2 text-sm text-ink-soft">{seller.bio}</span>
                  ) : null}
                  <span className="mt-auto pt-1 text-sm font-semibold text-moss">
                    {countOf(seller.activeListings, 'book', 'books')} for sale
                    {seller.charity ? ' · charity' : ''}
                    {seller.followers ? (
                      <span className="font-normal text-ink-muted">
                        {' · '}
                        {countOf(seller.followers, 'follower', 'followers')}
                      </span>
                    ) : null}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </PageBody>
    </>
  );
}

export function SellerPage() {
  const { sellerId = '' } = useParams();
  const valid = isRouteId(sellerId);
  const seller = trpc.catalogue.sellers.byId.useQuery(
    { sellerId },
    { enabled: valid, retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  const tiers = trpc.commerce.basket.public.tiers.useQuery({ sellerId }, { enabled: valid });
  usePageMeta(
    seller.data ? `${seller.data.displayName}: books for sale` : 'Seller',
    seller.data
      ? `Pre-loved books for sale from ${seller.data.displayName}${seller.data.town ? ` in ${seller.data.town}` : ''} on Reshelf.`
      : undefined,
  );
  if (
    !valid ||
    (seller.isError && (isNotFound(seller.error) || (seller.error.data?.httpStatus ?? 0) === 400))
  ) {
    return <NotFoundContent />;
  }
  const data = seller.data;
  return (
    <>
      <PageHeader
        title={data?.displayName ?? '\u00a0'}
        crumbs={[{ to: '/discover-sellers', label: 'Sellers' }]}
        description={
          data ? (
            <span className="flex flex-col gap-2">
              <span className="flex flex-wrap gap-x-4 text-base">
                {data.town ? <span>{data.town}</span> : null}
                <span>On Reshelf since {memberSince(data.memberSince)}</span>
                <span>{countOf(data.activeListings, 'book', 'books')} for sale</span>
              </span>
              <SellerRatingSummary sellerId={data.id} />
              {data.bio ? <span className="text-base text-ink-soft">{data.bio}</span> : null}
              {data.charity ? (
                <Link
                  to={`/charity/${data.charity.slug}`}
                  className="text-base font-semibold text-brand hover:underline"
                >
                  See the charity’s page
                </Link>
              ) : null}
            </span>
          ) : undefined
        }
      >
        {data ? (
          <FollowButton
            target={{ kind: 'seller', sellerId: data.id }}
            name={data.displayName}
            className="mt-4"
          />
        ) : null}
        {data ? (
          <div className="mt-3">
            <ReportProfile profileId={data.id} name={data.displayName} />
          </div>
        ) : null}
      </PageHeader>
      <PageBody>
        {data && tiers.data ? (
          <BuyMoreFromSeller
            name={data.displayName}
            tiers={tiers.data}
            activeListings={data.activeListings}
          />
        ) : null}
        {/* Books first; the reviews after them (the header's rating line links down to them). */}
        <ListingsBrowser
          fixed={{ seller: sellerId }}
          empty={<p>This seller has nothing for sale right now.</p>}
        />
        {data ? <SellerReviewsSection sellerId={sellerId} sellerName={data.displayName} spaced /> : null}
      </PageBody>
    </>
  );
}
