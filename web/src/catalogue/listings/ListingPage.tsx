import {
  CONDITION_LABELS,
  copyFeatures,
  countOf,
  formatIsbn,
  formatPence,
  hasPhotoSizes,
  type ListingDetail,
  type ListingPriceBreakdown,
  type PARCEL_SIZES,
} from '@reshelf/contracts';
import {
  BadgeCheck,
  HeartHandshake,
  Info,
  MapPin,
  PackageCheck,
  ShieldCheck,
  Store,
  Undo2,
} from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  AddToBasketButton,
  HeldForYou,
  ListingOffer,
  TypicalPrice,
  useHeldOrder,
} from '../../commerce/index.ts';
import {
  FollowButton,
  MessageSellerButton,
  ReportListing,
  SellerRatingFor,
  SellerReviewsSection,
} from '../../community/index.ts';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { ListingSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { SellerTerms } from '../../components/SellerTerms.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { photoPreload } from '../../lib/media.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSiteOrigin } from '../../lib/site-origin.ts';
import { trpc } from '../../lib/trpc.ts';
import { OtherCopies } from '../editions/OtherCopies.tsx';
import { WishlistButton } from '../wishlist/WishlistButton.tsx';
import { AuthorLinks } from './AuthorLinks.tsx';
import { CollectorDetails } from './CollectorDetails.tsx';
import { bookJsonLd } from './json-ld.ts';
import { ListingGrid } from './ListingGrid.tsx';
import { ListingPhotos } from './ListingPhotos.tsx';
import { leadPicture } from './listing-images.ts';
import { ShownPriceNote } from './ShownPrice.tsx';

const PARCEL_LABELS: Record<(typeof PARCEL_SIZES)[number], string> = {
  small: 'small parcel',
  medium: 'medium parcel',
  large: 'large parcel',
};

const UNAVAILABLE_TEXT: Record<
  NonNullable<ListingDetail['unavailableReason']>,
  { title: string; text: string }
> = {
  sold: {
    title: 'This copy has been sold',
    text: 'Someone else got there first. Other copies may be for sale.',
  },
  reserved: {
    title: 'This copy is reserved',
    text: 'Someone is checking out with it right now. If they don’t complete the purchase it will be back on sale shortly.',
  },
  withdrawn: { title: 'This listing has been withdrawn', text: 'The seller has taken this copy off sale.' },
  removed: {
    title: 'This listing has been removed',
    text: 'Our team removed this listing because it broke our rules. Other copies may be for sale.',
  },
};

export function ListingPage() {
  const { slug = '' } = useParams();
  const listing = trpc.catalogue.listings.bySlug.useQuery(
    { slug },
    { retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  const detail = listing.data;
  usePageMeta(
    detail
      ? `${detail.title} by ${detail.authors.join(', ')}`
      : listing.isError
        ? 'Listing not found'
        : 'Loading listing',
    detail
      ? `${CONDITION_LABELS[detail.condition]} copy of ${detail.title} for ${formatPence(detail.price.allInMinor)} including buyer protection, sold by ${detail.seller.displayName} on Reshelf.`
      : undefined,
    detail
      ? {
          image: leadPicture(detail.photos[0], detail.coverUrl),
          type: 'book',
          // The first photo is the page's largest paint: the server's head preloads it.
          preloadImage:
            detail.photos[0] && hasPhotoSizes(detail.photos[0])
              ? photoPreload(detail.photos[0], 'listing')
              : null,
        }
      : {},
  );

  if (listing.isPending) return <ListingSkeleton />;
  if (listing.isError) {
    if (isNotFound(listing.error)) return <NotFoundContent />;
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <QueryError what="this listing" onRetry={() => listing.refetch()} retrying={listing.isFetching} />
      </div>
    );
  }
  return <ListingView listing={listing.data} />;
}

function ListingView({ listing }: { listing: ListingDetail }) {
  const recordView = trpc.catalogue.listings.recordView.useMutation();
  const recorded = useRef<string | null>(null);
  const { mutate } = recordView;
  useEffect(() => {
    if (listing.available && recorded.current !== listing.id) {
      recorded.current = listing.id;
      mutate({ listingId: listing.id });
    }
  }, [listing.id, listing.available, mutate]);

  const similar = trpc.catalogue.listings.similar.useQuery({ slug: listing.slug, limit: 8 });
  const photos = listing.photos;
  const origin = useSiteOrigin();

  return (
    <div data-testid="listing-page">
      <script type="application/ld+json" data-testid="listing-json-ld">
        {JSON.stringify(bookJsonLd(listing, origin)).replace(/</g, '\\u003c')}
      </script>
      <div className="mx-auto w-full max-w-6xl px-4 py-4 sm:px-6 md:py-8 lg:px-8 lg:py-12">
        <Breadcrumbs
          className="mb-3 md:mb-6"
          crumbs={[
            { to: '/listings', label: 'Books' },
            ...(listing.category
              ? [{ to: `/c/${listing.category.slug}`, label: listing.category.name }]
              : []),
          ]}
        />

        <div className="grid gap-8 md:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] md:gap-12">
          <div className="md:sticky md:top-24 md:self-start">
            <ListingPhotos
              title={listing.title}
              authors={listing.authors}
              isbn13={listing.isbn13}
              coverUrl={listing.coverUrl}
              photos={photos}
            />
          </div>

          <div className="min-w-0">
            {listing.category ? (
              <p className="text-sm font-semibold tracking-widest text-brand uppercase">
                {listing.category.name}
              </p>
            ) : null}
            <h1 className="mt-2 text-3xl font-semibold break-words sm:text-4xl">{listing.title}</h1>
            {listing.subtitle ? <p className="mt-1 text-lg text-ink-soft">{listing.subtitle}</p> : null}
            <p className="mt-2 text-lg text-ink-muted">
              <AuthorLinks authors={listing.authors} />
            </p>
            {listing.authors.length ? (
              <div className="mt-3 flex flex-wrap gap-2" data-testid="follow-authors">
                {listing.authors.slice(0, 3).map((author) => (
                  <FollowButton key={author} target={{ kind: 'author', author }} name={author} withName />
                ))}
              </div>
            ) : null}

            <div className="mt-4 flex flex-wrap items-center gap-2">
              <span
                className="rounded-full bg-moss-soft px-3 py-1 text-sm font-semibold text-moss"
                data-testid="listing-condition"
              >
                {CONDITION_LABELS[listing.condition]}
              </span>
              {copyFeatures(listing).map((feature) => (
                <span
                  key={feature}
                  className="rounded-full bg-paper-deep px-3 py-1 text-sm font-semibold text-ink-soft"
                >
                  {feature}
                </span>
              ))}
              {listing.charity ? (
                <span className="inline-flex items-center gap-1.5 rounded-full bg-brand-soft px-3 py-1 text-sm font-semibold text-brand">
                  <HeartHandshake aria-hidden="true" className="size-4" />
                  Charity seller
                </span>
              ) : null}
              {listing.charity ? (
                <span
                  className="inline-flex items-center gap-1.5 rounded-full bg-moss-soft px-3 py-1 text-sm font-semibold text-moss"
                  title="Charities sell as traders: return the book within 14 days of delivery"
                  data-testid="charity-returns"
                >
                  <Undo2 aria-hidden="true" className="size-4" />
                  14-day returns
                </span>
              ) : null}
            </div>

            {listing.available ? <BuyBox listing={listing} /> : <Unavailable listing={listing} />}
            <OtherCopies listingSlug={listing.slug} />

            {listing.conditionNotes || listing.description ? (
              <section aria-labelledby="seller-notes" className="mt-8">
                <h2 id="seller-notes" className="text-xl font-semibold">
                  About this copy
                </h2>
                {listing.conditionNotes ? (
                  <p className="mt-2 text-ink-soft">{listing.conditionNotes}</p>
                ) : null}
                {listing.description ? <p className="mt-2 text-ink-soft">{listing.description}</p> : null}
              </section>
            ) : null}

            <CollectorDetails listing={listing} />

            {listing.bookDescription ? (
              <section aria-labelledby="about-book" className="mt-8">
                <h2 id="about-book" className="text-xl font-semibold">
                  About the book
                </h2>
                <p className="mt-2 text-ink-soft">{listing.bookDescription}</p>
              </section>
            ) : null}

            <BookFacts listing={listing} />
            <SellerCard listing={listing} />
            <SellerReviewsSection
              sellerId={listing.seller.id}
              sellerName={listing.seller.displayName}
              limit={4}
              spaced
            />
            <ReportListing listing={listing} />
          </div>
        </div>
      </div>

      <section aria-labelledby="similar-title" className="border-t border-line bg-paper-deep/50">
        <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
          <h2 id="similar-title" className="mb-6 text-2xl font-semibold sm:text-3xl">
            Similar books
          </h2>
          <ListingGrid
            query={similar}
            what="similar books"
            empty={<p>No similar books are for sale right now.</p>}
          />
        </div>
      </section>
    </div>
  );
}

export function PriceBreakdown({ price }: { price: ListingPriceBreakdown }) {
  return (
    <dl className="flex flex-col gap-2 text-sm" data-testid="price-breakdown">
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">Item price</dt>
        <dd className="font-medium tabular-nums" data-testid="price-item">
          {formatPence(price.itemMinor)}
        </dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">Postage ({PARCEL_LABELS[price.parcelSize]})</dt>
        <dd className="font-medium tabular-nums" data-testid="price-postage">
          {formatPence(price.postageMinor)}
        </dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">
          Buyer protection
          <span className="block text-xs text-ink-muted">
            {formatPence(price.protectionFixedMinor)} + {price.protectionPercent}% of the item price,
            including VAT of {formatPence(price.protectionVatMinor)}
          </span>
        </dt>
        <dd className="font-medium tabular-nums" data-testid="price-protection">
          {formatPence(price.protectionMinor)}
        </dd>
      </div>
      <div className="mt-1 flex justify-between gap-4 border-t border-line pt-3 text-base">
        <dt className="font-semibold">Total</dt>
        <dd className="font-semibold tabular-nums" data-testid="price-total">
          {formatPence(price.totalMinor)}
        </dd>
      </div>
    </dl>
  );
}

/** Returns for any reason: a charity's, or a private seller's who accepts them. */
function ReturnsLine({ returns }: { returns: ListingDetail['returns'] }) {
  return (
    <p className="mt-4 text-sm text-ink-soft" data-testid="listing-returns">
      {returns
        ? `Returns accepted within ${returns.days} days of delivery (return postage paid by the ${returns.postageBy}).`
        : 'No returns for a change of mind; a problem with the book is covered by buyer protection.'}{' '}
      <Link to="/help-centre/buyer-protection" className="underline">
        How it works
      </Link>
    </p>
  );
}

function BuyBox({ listing }: { listing: ListingDetail }) {
  return (
    <section
      aria-labelledby="price-title"
      className="mt-6 rounded-xl border border-line bg-paper p-5 shadow-card"
    >
      <h2 id="price-title" className="sr-only">
        Price
      </h2>
      <p className="font-serif text-4xl font-semibold" data-testid="listing-price">
        {formatPence(listing.price.allInMinor)}
      </p>
      <ShownPriceNote postageFromMinor={listing.price.postageMinor} className="mt-1 text-sm" />
      <p className="mt-1 text-sm text-ink-muted">
        {formatPence(listing.price.totalMinor)} in total with postage
      </p>
      <div className="mt-5">
        <PriceBreakdown price={listing.price} />
      </div>
      <TypicalPrice listingSlug={listing.slug} />
      {/* A trader's cancellation rights say what returns are; a private seller may offer them. */}
      {listing.trader ? null : <ReturnsLine returns={listing.returns} />}
      <SellerTerms trader={listing.trader} className="mt-4" />
      {/*
        On a phone, Buy stays in reach: this row is a bar fixed to the bottom of the screen with the
        price beside it (styles.css keeps what has focus, and the page's end, clear of it).
      */}
      <div
        data-testid="buy-bar"
        data-buy-bar=""
        className="max-md:fixed max-md:inset-x-0 max-md:bottom-0 max-md:z-40 max-md:flex max-md:h-[calc(var(--buy-bar-height)+var(--shell-bottom,0px))] max-md:items-center max-md:gap-3 max-md:border-t max-md:border-line max-md:bg-paper/95 max-md:px-4 max-md:pb-[var(--shell-bottom,0px)] max-md:shadow-[0_-8px_30px_-12px_rgb(34_28_24/0.25)] max-md:backdrop-blur-sm md:mt-6 md:flex md:gap-3"
      >
        <p className="flex flex-col leading-tight md:hidden">
          <span className="font-serif text-xl font-semibold">{formatPence(listing.price.allInMinor)}</span>
          <span className="text-xs text-ink-muted">{formatPence(listing.price.totalMinor)} with postage</span>
        </p>
        <Button asChild variant="cta" size="lg" className="flex-1">
          <Link to={`/checkout?listing=${encodeURIComponent(listing.slug)}`}>Buy now</Link>
        </Button>
        <AddToBasketButton
          listing={listing}
          className="max-md:flex-none max-md:px-3.5"
          labelClassName="max-md:sr-only"
        />
      </div>
      <div className="mt-3 flex flex-col">
        <WishlistButton listingId={listing.id} title={listing.title} variant="page" />
      </div>
      <div className="mt-3 empty:hidden">
        <ListingOffer listing={listing} />
      </div>
      <div className="mt-3 empty:hidden">
        <MessageSellerButton listing={listing} />
      </div>
      <ul className="mt-5 flex flex-col gap-2 text-sm text-ink-soft">
        <li className="flex gap-2">
          <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-moss" />
          Your money is held until the book reaches you.
        </li>
        <li className="flex gap-2">
          <PackageCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-moss" />
          {listing.charity
            ? 'Sold by a charity: you can return it within 14 days of delivery.'
            : 'If it doesn’t arrive or isn’t as described, we’ll put it right.'}
        </li>
      </ul>
    </section>
  );
}

function Unavailable({ listing }: { listing: ListingDetail }) {
  const reason = UNAVAILABLE_TEXT[listing.unavailableReason ?? 'withdrawn'];
  // The buyer who reserved it, back from the payment page: it is theirs to finish paying for.
  const { held, settled } = useHeldOrder(listing.id, listing.status === 'reserved');
  if (held) {
    return (
      <HeldForYou orderId={held.orderId} reservedUntil={held.reservedUntil} order={held} className="mt-6" />
    );
  }
  if (!settled) return <Skeleton className="mt-6 h-40 w-full rounded-xl" />;
  return (
    <section
      role="status"
      data-testid="listing-unavailable"
      className="mt-6 flex flex-col gap-4 rounded-xl border border-line bg-paper-deep p-5"
    >
      <div className="flex gap-3">
        <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand" />
        <div>
          <h2 className="text-xl font-semibold">{reason.title}</h2>
          <p className="mt-1 text-ink-soft">{reason.text}</p>
        </div>
      </div>
      {listing.status === 'reserved' ? (
        <div className="empty:hidden">
          <ListingOffer listing={listing} />
        </div>
      ) : null}
      <div className="flex flex-col gap-3 sm:flex-row">
        <Button asChild variant="brand" size="lg">
          <Link to={`/search?q=${encodeURIComponent(listing.isbn13 ?? listing.title)}`}>
            Find other copies
          </Link>
        </Button>
        <WishlistButton
          listingId={listing.id}
          title={listing.title}
          variant="page"
          available={listing.status === 'reserved'}
        />
      </div>
    </section>
  );
}

function BookFacts({ listing }: { listing: ListingDetail }) {
  const facts: [string, string | null][] = [
    ['ISBN-13', listing.isbn13 && formatIsbn(listing.isbn13)],
    ['ISBN-10', listing.isbn10 && formatIsbn(listing.isbn10)],
    ['Publisher', listing.publisher],
    ['Published', listing.publishedYear ? String(listing.publishedYear) : null],
    ['Pages', listing.pageCount ? listing.pageCount.toLocaleString('en-GB') : null],
  ];
  const shown = facts.filter((fact): fact is [string, string] => Boolean(fact[1]));
  return (
    <section aria-labelledby="book-details" className="mt-8">
      <h2 id="book-details" className="text-xl font-semibold">
        Book details
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-1.5 text-sm">
        {shown.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="break-words text-ink">{value}</dd>
          </div>
        ))}
        {listing.genres.length ? (
          <div className="contents">
            <dt className="text-ink-muted">Genres</dt>
            <dd className="flex flex-wrap gap-x-2">
              {listing.genres.map((genre) => (
                <Link
                  key={genre.slug}
                  to={`/g/${genre.slug}`}
                  className="text-brand underline-offset-4 hover:underline"
                >
                  {genre.name}
                </Link>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function SellerCard({ listing }: { listing: ListingDetail }) {
  const { seller, charity } = listing;
  const since = new Date(seller.memberSince).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  });
  const profile = charity ? `/charity/${charity.slug}` : `/seller/${seller.id}`;
  return (
    <section
      aria-labelledby="seller-title"
      className="mt-8 rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="seller-card"
    >
      <h2 id="seller-title" className="sr-only">
        The seller
      </h2>
      <div className="flex items-start gap-4">
        <span
          aria-hidden="true"
          className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-soft font-serif text-xl font-semibold text-brand"
        >
          {charity ? <HeartHandshake className="size-6" /> : seller.displayName.slice(0, 1).toUpperCase()}
        </span>
        <div className="min-w-0">
          <p className="font-serif text-lg font-semibold">
            <Link to={profile} className="underline-offset-4 hover:text-brand hover:underline">
              {seller.displayName}
            </Link>
          </p>
          <SellerRatingFor sellerId={seller.id} className="mt-0.5" />
          <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
            {seller.town ? (
              <span className="inline-flex items-center gap-1">
                <MapPin aria-hidden="true" className="size-3.5" />
                {seller.town}
              </span>
            ) : null}
            <span className="inline-flex items-center gap-1">
              <Store aria-hidden="true" className="size-3.5" />
              {countOf(seller.activeListings, 'book', 'books')} for sale
            </span>
            <span>On Reshelf since {since}</span>
          </p>
          {charity ? (
            <p className="mt-2 inline-flex items-center gap-1.5 text-sm text-moss">
              <BadgeCheck aria-hidden="true" className="size-4" />
              Registered charity {charity.registeredNumber}
            </p>
          ) : null}
          {seller.bio && !charity ? <p className="mt-2 text-sm text-ink-soft">{seller.bio}</p> : null}
        </div>
      </div>
    </section>
  );
}
