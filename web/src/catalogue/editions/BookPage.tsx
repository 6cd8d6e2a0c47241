/**
 * The book page, /book/:slug (decision 0081): the work, its editions (choose one with
 * ?edition=), and every copy on sale in a table a buyer sorts by the all-in price, condition or
 * the seller's rating, each row linking to its listing. At a phone's width the rows are cards
 * and a menu sorts them. Server-rendered with its JSON-LD (a Book with an AggregateOffer).
 */

import {
  BOOK_FORMAT_LABELS,
  BOOKMAN_LABELS,
  type BookCopy,
  type BookEdition,
  type BookPage as BookPageData,
  CONDITION_LABELS,
  COPY_ATTRIBUTE_LABELS,
  countOf,
  DUST_JACKET_LABELS,
  formatIsbn,
  formatPence,
  ratingWords,
} from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, HeartHandshake, Star } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { TypicalPrices } from '../../commerce/index.ts';
import { WantButton } from '../../community/index.ts';
import { BookCover } from '../../components/BookCover.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSiteOrigin } from '../../lib/site-origin.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { AuthorLinks } from '../listings/AuthorLinks.tsx';
import { ShownPriceNote } from '../listings/ShownPrice.tsx';
import { CompleteTheSet, SeriesPlace, useWorkSeries } from '../series/SeriesPanel.tsx';
import { workJsonLd } from './book-json-ld.ts';
import {
  COPY_SORT_LABELS,
  COPY_SORT_OPTION_LABELS,
  type CopySort,
  type CopySortKey,
  copySortParam,
  DEFAULT_COPY_SORT,
  nextSort,
  parseCopySort,
  sortCopies,
} from './copy-sort.ts';
import { copiesFrom, editionName } from './edition-text.ts';

export function BookPage() {
  const { slug = '' } = useParams();
  const [searchParams] = useSearchParams();
  const edition = searchParams.get('edition') ?? undefined;
  const book = trpc.catalogue.books.public.bySlug.useQuery(
    { slug, ...(edition ? { edition } : {}) },
    { retry: (count, error) => !isNotFound(error) && count < 1, placeholderData: keepPreviousData },
  );
  const page = book.data;
  const byline = page ? `${page.work.title} by ${page.work.authors.join(', ')}` : null;
  usePageMeta(
    byline ?? (book.isError ? 'Book not found' : 'Loading book'),
    page && byline
      ? page.copiesOnSale > 0 && page.lowAllInMinor !== null
        ? `${countOf(page.copiesOnSale, 'copy', 'copies')} of ${byline} on Reshelf from ${formatPence(page.lowAllInMinor)} including buyer protection: compare editions, conditions and sellers.`
        : `${byline} on Reshelf: its editions, and every copy for sale when one is.`
      : undefined,
    page ? { image: page.work.coverUrl, type: 'book' } : {},
  );

  if (book.isPending) return <PageSkeleton label="Loading book" />;
  if (book.isError) {
    if (isNotFound(book.error)) return <NotFoundContent />;
    return (
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <QueryError what="this book" onRetry={() => book.refetch()} retrying={book.isFetching} />
      </div>
    );
  }
  return <BookView page={book.data} />;
}

function BookView({ page }: { page: BookPageData }) {
  const origin = useSiteOrigin();
  const { work } = page;
  const series = useWorkSeries(work.slug);
  const chosen = page.editions.find((edition) => edition.id === page.editionId) ?? null;
  return (
    <div
      data-testid="book-page"
      className="mx-auto w-full max-w-6xl px-4 py-4 sm:px-6 md:py-8 lg:px-8 lg:py-12"
    >
      <script type="application/ld+json" data-testid="book-json-ld">
        {JSON.stringify(workJsonLd(page, origin)).replace(/</g, '\\u003c')}
      </script>
      <Breadcrumbs className="mb-3 md:mb-6" crumbs={[{ to: '/listings', label: 'Books' }]} />

      <div className="grid gap-6 sm:grid-cols-[10rem_minmax(0,1fr)] md:grid-cols-[14rem_minmax(0,1fr)] md:gap-10">
        <div className="mx-auto w-48 sm:mx-0 sm:w-full">
          <BookCover
            title={work.title}
            authors={work.authors}
            isbn13={chosen?.isbn13 ?? page.editions[0]?.isbn13 ?? null}
            coverUrl={chosen?.coverUrl ?? work.coverUrl}
            size="large"
            eager
            priority="high"
          />
        </div>
        <div className="min-w-0">
          <h1 className="text-3xl font-semibold break-words sm:text-4xl">{work.title}</h1>
          {work.authors.length ? (
            <p className="mt-2 text-lg text-ink-muted">
              <AuthorLinks authors={work.authors} />
            </p>
          ) : null}
          {series.data ? <SeriesPlace set={series.data} /> : null}
          <p className="mt-4 font-serif text-xl font-semibold" data-testid="book-summary">
            {copiesFrom(page.copiesOnSale, page.lowAllInMinor)}
            {chosen ? (
              <span className="font-sans text-base font-normal text-ink-muted"> of this edition</span>
            ) : null}
          </p>
          {page.lowAllInMinor !== null ? (
            <p className="text-sm text-ink-muted">
              Prices include buyer protection; postage is added at checkout.
            </p>
          ) : null}
          {/* One edition's sales: chosen, or the book's only one. */}
          {(chosen ?? (page.editions.length === 1 ? page.editions[0] : null)) ? (
            <TypicalPrices bookId={(chosen ?? page.editions[0])!.id} />
          ) : null}
          {work.description ? <p className="mt-4 max-w-prose text-ink-soft">{work.description}</p> : null}
          <WantButton
            workId={work.id}
            edition={chosen ? { id: chosen.id, name: editionName(chosen) } : null}
          />
        </div>
      </div>

      {series.data ? <CompleteTheSet set={series.data} workSlug={work.slug} /> : null}
      <Editions page={page} />
      <Copies page={page} chosen={chosen} />
    </div>
  );
}

function Editions({ page }: { page: BookPageData }) {
  const base = `/book/${page.work.slug}`;
  const linkClass = (current: boolean) =>
    cn(
      'flex h-full flex-col gap-0.5 rounded-lg border p-3 text-sm underline-offset-4 hover:border-brand hover:bg-brand-soft/40',
      current ? 'border-brand bg-brand-soft/60' : 'border-line bg-paper',
    );
  return (
    <section aria-labelledby="editions-title" className="mt-10" data-testid="book-editions">
      <h2 id="editions-title" className="text-2xl font-semibold">
        Editions
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <Link
            to={base}
            preventScrollReset
            aria-current={page.editionId === null ? 'page' : undefined}
            className={linkClass(page.editionId === null)}
          >
            <span className="font-semibold text-ink">All editions</span>
            <span className="text-ink-muted">{countOf(page.editions.length, 'edition', 'editions')}</span>
          </Link>
        </li>
        {page.editions.map((edition) => (
          <li key={edition.id} data-testid="edition">
            <Link
              to={`${base}?edition=${edition.id}`}
              preventScrollReset
              aria-current={page.editionId === edition.id ? 'page' : undefined}
              className={linkClass(page.editionId === edition.id)}
            >
              <span className="font-semibold text-ink">{editionName(edition)}</span>
              {edition.subtitle ? <span className="text-ink-soft">{edition.subtitle}</span> : null}
              <span className="text-ink-muted">
                {[
                  edition.formats.map((format) => BOOK_FORMAT_LABELS[format]).join(' or '),
                  edition.isbn13 && (edition.publisher || edition.publishedYear)
                    ? `ISBN ${formatIsbn(edition.isbn13)}`
                    : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
              <span className="font-medium text-ink" data-testid="edition-copies">
                {copiesFrom(edition.copiesOnSale, edition.lowestAllInMinor)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Copies({ page, chosen }: { page: BookPageData; chosen: BookEdition | null }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const sort = parseCopySort(searchParams.get('sort'));
  const copies = sortCopies(page.copies, sort);
  const editions = new Map(page.editions.map((edition) => [edition.id, edition]));
  const setSort = (next: CopySort) =>
    setSearchParams(
      (params) => {
        const updated = new URLSearchParams(params);
        if (copySortParam(next) === copySortParam(DEFAULT_COPY_SORT)) updated.delete('sort');
        else updated.set('sort', copySortParam(next));
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <section aria-labelledby="copies-title" className="mt-10" data-testid="book-copies">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="copies-title" className="text-2xl font-semibold">
          Copies for sale{chosen ? ` of ${editionName(chosen)}` : ''}{' '}
          <span className="text-base font-normal text-ink-muted">({page.copiesOnSale})</span>
        </h2>
        {copies.length > 1 ? (
          <label className="flex items-center gap-2 text-sm md:hidden">
            <span className="font-medium">Sort by</span>
            <select
              data-testid="copy-sort"
              className="h-10 rounded-md border border-line bg-paper px-2 text-sm"
              value={copySortParam(sort)}
              onChange={(event) => setSort(parseCopySort(event.target.value))}
            >
              {Object.entries(COPY_SORT_OPTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>

      {copies.length === 0 ? (
        <div className="mt-4 rounded-xl border border-line bg-paper-deep p-5" data-testid="no-copies">
          <p className="font-semibold">No copies {chosen ? 'of this edition ' : ''}are for sale right now.</p>
          <p className="mt-1 text-ink-soft">
            {chosen && page.editions.some((edition) => edition.copiesOnSale > 0)
              ? 'Other editions have copies for sale.'
              : 'Copies come and go every day: look again soon.'}
          </p>
          {chosen ? (
            <Button asChild variant="brand" className="mt-4">
              <Link to={`/book/${page.work.slug}`}>See all editions</Link>
            </Button>
          ) : null}
        </div>
      ) : (
        <>
          <CopyTable copies={copies} editions={editions} sort={sort} onSort={setSort} />
          <ul className="mt-4 flex flex-col gap-3 md:hidden" aria-label="Copies for sale">
            {copies.map((copy) => (
              <li key={copy.listingSlug}>
                <CopyCard copy={copy} edition={editions.get(copy.editionId)} />
              </li>
            ))}
          </ul>
        </>
      )}
      {page.copiesOnSale > page.copies.length ? (
        <p className="mt-3 text-sm text-ink-muted">
          Showing the {page.copies.length} cheapest of {page.copiesOnSale} copies.
        </p>
      ) : null}
    </section>
  );
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

function SortHeader({
  column,
  sort,
  onSort,
  className,
}: {
  column: CopySortKey;
  sort: CopySort;
  onSort: (sort: CopySort) => void;
  className?: string;
}) {
  const active = sort.key === column;
  const Icon = active ? (sort.direction === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <th
      scope="col"
      aria-sort={active ? ARIA_SORT[sort.direction] : 'none'}
      className={cn('px-3 py-2', className)}
    >
      <button
        type="button"
        data-testid={`sort-${column}`}
        onClick={() => onSort(nextSort(sort, column))}
        className="inline-flex items-center gap-1 rounded font-semibold hover:text-brand"
      >
        {COPY_SORT_LABELS[column]}
        <Icon aria-hidden="true" className={cn('size-4', active ? 'text-brand' : 'text-ink-muted')} />
      </button>
    </th>
  );
}

function CopyTable({
  copies,
  editions,
  sort,
  onSort,
}: {
  copies: BookCopy[];
  editions: Map<string, BookEdition>;
  sort: CopySort;
  onSort: (sort: CopySort) => void;
}) {
  return (
    <table className="mt-4 hidden w-full border-collapse text-left text-sm md:table" data-testid="copy-table">
      <caption className="sr-only">
        Copies for sale: {COPY_SORT_OPTION_LABELS[copySortParam(sort)]}. Press a column’s heading to sort by
        it.
      </caption>
      <thead className="border-b border-line text-ink-soft">
        <tr>
          <SortHeader column="price" sort={sort} onSort={onSort} />
          <SortHeader column="condition" sort={sort} onSort={onSort} />
          <th scope="col" className="px-3 py-2 font-semibold">
            Edition
          </th>
          <SortHeader column="rating" sort={sort} onSort={onSort} />
          <th scope="col" className="px-3 py-2">
            <span className="sr-only">Listing</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {copies.map((copy) => {
          const edition = editions.get(copy.editionId);
          return (
            <tr key={copy.listingSlug} data-testid="copy-row" className="border-b border-line align-top">
              <td className="px-3 py-3">
                <p className="font-serif text-lg font-semibold tabular-nums" data-testid="copy-price">
                  {formatPence(copy.allInMinor)}
                </p>
                <ShownPriceNote postageFromMinor={copy.postageFromMinor} />
              </td>
              <td className="px-3 py-3">
                <CopyCondition copy={copy} />
              </td>
              <td className="px-3 py-3 text-ink-soft">{edition ? editionName(edition) : null}</td>
              <td className="px-3 py-3">
                <CopySeller copy={copy} />
              </td>
              <td className="px-3 py-3 text-right">
                <CopyLink copy={copy} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function CopyCard({ copy, edition }: { copy: BookCopy; edition: BookEdition | undefined }) {
  return (
    <article className="rounded-xl border border-line bg-paper p-4 shadow-card" data-testid="copy-card">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <CopyCondition copy={copy} />
          {edition ? <p className="mt-1 text-sm text-ink-soft">{editionName(edition)}</p> : null}
        </div>
        <div className="shrink-0 text-right">
          <p className="font-serif text-xl font-semibold tabular-nums" data-testid="copy-price">
            {formatPence(copy.allInMinor)}
          </p>
        </div>
      </div>
      <ShownPriceNote postageFromMinor={copy.postageFromMinor} className="mt-1" />
      <div className="mt-3 flex items-end justify-between gap-3">
        <CopySeller copy={copy} />
        <CopyLink copy={copy} />
      </div>
    </article>
  );
}

/** The condition, and what a collector asks: the Bookman grade, the jacket, the attributes, the format. */
function CopyCondition({ copy }: { copy: BookCopy }) {
  const details = [
    copy.bookmanGrade ? `Bookman: ${BOOKMAN_LABELS[copy.bookmanGrade]}` : null,
    copy.dustJacket
      ? copy.dustJacket === 'none'
        ? DUST_JACKET_LABELS.none
        : `Dust jacket: ${DUST_JACKET_LABELS[copy.dustJacket]}`
      : null,
    copy.format ? BOOK_FORMAT_LABELS[copy.format] : null,
    ...copy.attributes.map((attribute) => COPY_ATTRIBUTE_LABELS[attribute]),
  ].filter((detail): detail is string => Boolean(detail));
  return (
    <div>
      <p className="font-semibold text-ink" data-testid="copy-condition">
        {CONDITION_LABELS[copy.condition]}
      </p>
      {details.length ? <p className="text-ink-soft">{details.join(' · ')}</p> : null}
    </div>
  );
}

function CopySeller({ copy }: { copy: BookCopy }) {
  const { sellerRating: rating } = copy;
  return (
    <div className="min-w-0 text-sm">
      <p className="flex items-center gap-1.5 font-medium">
        {copy.charity ? <HeartHandshake aria-hidden="true" className="size-4 shrink-0 text-brand" /> : null}
        <Link
          to={copy.charity ? `/charity/${copy.charity.slug}` : `/seller/${copy.sellerId}`}
          className="break-words underline-offset-4 hover:text-brand hover:underline"
        >
          {copy.sellerName}
        </Link>
      </p>
      <p
        className="flex items-center gap-1 text-ink-muted"
        data-testid="copy-rating"
        title={ratingWords(rating)}
      >
        {rating.average !== null && rating.count > 0 ? (
          <>
            <Star aria-hidden="true" className="size-3.5 fill-amber-500 text-amber-500" />
            <span className="sr-only">{ratingWords(rating)}</span>
            <span aria-hidden="true">
              {rating.average.toFixed(1)} ({rating.count})
            </span>
          </>
        ) : (
          ratingWords(rating)
        )}
      </p>
    </div>
  );
}

function CopyLink({ copy }: { copy: BookCopy }) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={`/listing/${copy.listingSlug}`} data-testid="copy-link">
        View copy
        <span className="sr-only">
          : {CONDITION_LABELS[copy.condition]}, {formatPence(copy.allInMinor)}, sold by {copy.sellerName}
        </span>
      </Link>
    </Button>
  );
}
