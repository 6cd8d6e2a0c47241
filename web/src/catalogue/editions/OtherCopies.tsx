/**
 * On a listing's page: the book's other editions on sale and "N more copies from £x", each
 * linking to the book page (decision 0081). Nothing shows while it loads, or when the copy is
 * the only one of its book on sale.
 */
import { countOf, formatPence } from '@reshelf/contracts';
import { BookCopy as BookCopyIcon, ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { copiesFrom, editionName } from './edition-text.ts';

export function OtherCopies({ listingSlug }: { listingSlug: string }) {
  const book = trpc.catalogue.books.public.forListing.useQuery({ slug: listingSlug }, { retry: false });
  const data = book.data;
  if (!data || (data.moreCopies === 0 && data.otherEditions.length === 0)) return null;
  const base = `/book/${data.workSlug}`;
  return (
    <section
      aria-labelledby="other-copies-title"
      className="mt-6 rounded-xl border border-line bg-paper-deep/60 p-5"
      data-testid="other-copies"
    >
      <h2 id="other-copies-title" className="sr-only">
        More of this book
      </h2>
      {data.moreCopies > 0 && data.moreCopiesFromMinor !== null ? (
        <Link
          to={base}
          data-testid="more-copies"
          className="flex items-center justify-between gap-3 font-semibold underline-offset-4 hover:text-brand hover:underline"
        >
          <span className="inline-flex items-center gap-2">
            <BookCopyIcon aria-hidden="true" className="size-5 text-brand" />
            {countOf(data.moreCopies, 'more copy', 'more copies')} from{' '}
            {formatPence(data.moreCopiesFromMinor)}
          </span>
          <ChevronRight aria-hidden="true" className="size-4 shrink-0" />
        </Link>
      ) : null}
      {data.otherEditions.length ? (
        <div className={data.moreCopies > 0 ? 'mt-4 border-t border-line pt-4' : undefined}>
          <h3 className="text-sm font-semibold text-ink-soft">Other editions</h3>
          <ul className="mt-2 flex flex-col gap-1.5 text-sm" data-testid="other-editions">
            {data.otherEditions.map((edition) => (
              <li key={edition.id}>
                <Link
                  to={`${base}?edition=${edition.id}`}
                  className="flex flex-wrap justify-between gap-x-3 underline-offset-4 hover:text-brand hover:underline"
                >
                  <span className="font-medium">{editionName(edition)}</span>
                  <span className="text-ink-muted">
                    {copiesFrom(edition.copiesOnSale, edition.lowestAllInMinor)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
