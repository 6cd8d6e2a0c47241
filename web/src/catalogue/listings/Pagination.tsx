import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { cn } from '../../lib/utils.ts';

/** Page numbers to show: the first, the last, and two either side of the current one. */
export function pageWindow(current: number, last: number): (number | 'gap')[] {
  const pages = new Set([1, last, current - 2, current - 1, current, current + 1, current + 2]);
  const sorted = [...pages].filter((page) => page >= 1 && page <= last).sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  for (const [index, page] of sorted.entries()) {
    const previous = sorted[index - 1];
    // A gap of one page shows that page rather than "…".
    if (previous !== undefined && page - previous === 2) result.push(previous + 1);
    else if (previous !== undefined && page - previous > 2) result.push('gap');
    result.push(page);
  }
  return result;
}

const itemClass =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm font-semibold transition-colors';

/**
 * Links to other pages that keep every filter, the sort and the snapshot ("asOf") in the URL,
 * so each page is a link that reproduces it.
 */
export function Pagination({
  page,
  pageSize,
  total,
  hasNextPage,
  asOf,
}: {
  page: number;
  pageSize: number;
  total: number;
  hasNextPage: boolean;
  /** The snapshot the pages are of (copy by copy); results by book have none. */
  asOf?: string;
}) {
  const [search] = useSearchParams();
  const { pathname } = useLocation();
  const last = Math.max(Math.ceil(total / pageSize), hasNextPage ? page + 1 : page);
  if (last <= 1 && page === 1) return null;
  const href = (target: number) => {
    const next = new URLSearchParams(search);
    if (target === 1) next.delete('page');
    else next.set('page', String(target));
    if (asOf) next.set('asOf', asOf);
    return `${pathname}?${next.toString()}`;
  };
  return (
    <nav
      aria-label="Pages"
      className="mt-10 flex flex-wrap items-center justify-center gap-1"
      data-testid="pagination"
    >
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={cn(itemClass, 'gap-1 text-ink hover:bg-paper-deep')}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </Link>
      ) : null}
      <ul className="flex flex-wrap items-center gap-1">
        {pageWindow(Math.min(page, last), last).map((item, index) =>
          item === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own.
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-ink-muted">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                to={href(item)}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                className={cn(
                  itemClass,
                  item === page ? 'bg-ink text-paper' : 'text-ink hover:bg-paper-deep',
                  Math.abs(item - page) > 1 && item !== 1 && item !== last && 'hidden sm:inline-flex',
                )}
              >
                {item}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < last ? (
        <Link to={href(page + 1)} rel="next" className={cn(itemClass, 'gap-1 text-ink hover:bg-paper-deep')}>
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </Link>
      ) : null}
    </nav>
  );
}
