/**
 * The books of an order (one parcel): each with its price and, for the buyer and staff, what
 * was paid for it and what went back when a dispute or a return named it.
 */
import { formatPence, type OrderDetail, photoThumbUrl, plural } from '@reshelf/contracts';
import { Link } from 'react-router-dom';
import { BookCover } from '../../components/BookCover.tsx';
import { type OrderViewer, Panel } from './OrderParts.tsx';

export function OrderBooks({ order, viewer }: { order: OrderDetail; viewer: OrderViewer }) {
  const count = order.items.length;
  return (
    <Panel title={plural(count, 'The book', `${count} books, one parcel`)} testId="order-books">
      <ul className="flex flex-col divide-y divide-line">
        {order.items.map((item) => (
          <li
            key={`${item.position}-${item.listingId}`}
            className="flex items-start gap-3 py-3 first:pt-0 last:pb-0"
            data-testid="order-book"
            data-refunded={item.refundedMinor > 0 || undefined}
          >
            <div className="w-10 shrink-0">
              <BookCover
                title={item.title}
                authors={item.authors}
                coverUrl={item.imageUrl ? photoThumbUrl(item.imageUrl) : null}
                size="thumb"
              />
            </div>
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-semibold break-words">
                {item.listingSlug ? (
                  <Link to={`/listing/${item.listingSlug}`} className="hover:text-brand hover:underline">
                    {item.title}
                  </Link>
                ) : (
                  item.title
                )}
              </p>
              {item.authors.length ? <p className="text-ink-muted">{item.authors.join(', ')}</p> : null}
              {item.refundedMinor > 0 ? (
                <p className="mt-1 inline-block rounded-full bg-moss-soft px-2 py-0.5 text-xs font-semibold text-moss">
                  Refunded {formatPence(item.refundedMinor)}
                </p>
              ) : null}
            </div>
            <div className="shrink-0 text-right text-sm tabular-nums">
              <p className="font-semibold">{formatPence(item.priceMinor)}</p>
              {viewer !== 'seller' && count > 1 && item.paidMinor !== item.priceMinor ? (
                <p className="text-xs text-ink-muted">{formatPence(item.paidMinor)} paid</p>
              ) : null}
              {viewer === 'seller' && item.bundleDiscountMinor > 0 ? (
                <p className="text-xs text-ink-muted">−{formatPence(item.bundleDiscountMinor)} bundle</p>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
