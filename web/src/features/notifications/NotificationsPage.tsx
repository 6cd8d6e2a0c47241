import type { AppNotification } from '@reshelf/contracts';
import { photoThumbUrl } from '@reshelf/contracts';
import { BellOff, CheckCheck, Heart, Tag } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { BookCover } from '../catalogue/BookCover.tsx';

const WHEN = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** /account/notifications: price drops and sales of wished-for books, newest first; read once seen. */
export function NotificationsPage() {
  usePageMeta('Notifications');
  const utils = trpc.useUtils();
  const list = trpc.notifications.list.useQuery({ limit: 50 }, { staleTime: 0 });
  const markRead = trpc.notifications.markRead.useMutation({
    onSuccess: ({ unread }) => {
      utils.notifications.unreadCount.setData(undefined, { unread });
      void utils.notifications.list.invalidate();
    },
  });
  // Seeing the page reads what it shows (after a moment, so "new" is visible first).
  const marked = useRef(false);
  const { mutate } = markRead;
  const unread = list.data?.unread ?? 0;
  useEffect(() => {
    if (marked.current || unread === 0) return;
    const timer = window.setTimeout(() => {
      marked.current = true;
      mutate({ ids: 'all' });
    }, 3000);
    return () => window.clearTimeout(timer);
  }, [unread, mutate]);

  return (
    <div>
      <PageHeader
        title="Notifications"
        description="When a book on your wishlist drops in price or sells, you’ll hear about it here."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        {unread ? (
          <Button
            variant="outline"
            className="mt-5"
            disabled={markRead.isPending}
            onClick={() => {
              marked.current = true;
              mutate({ ids: 'all' });
            }}
          >
            <CheckCheck aria-hidden="true" />
            Mark all as read
          </Button>
        ) : null}
      </PageHeader>
      <PageBody>
        <div className="max-w-3xl">
          {list.isPending ? (
            <div
              role="status"
              aria-busy="true"
              aria-label="Loading your notifications"
              className="flex flex-col gap-3"
            >
              {[0, 1, 2].map((key) => (
                <Skeleton key={key} className="h-24 w-full rounded-xl" />
              ))}
            </div>
          ) : list.isError ? (
            <QueryError what="your notifications" onRetry={() => list.refetch()} retrying={list.isFetching} />
          ) : list.data.items.length === 0 ? (
            <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
              <BellOff aria-hidden="true" className="size-6" />
              <p>
                No notifications yet. Tap the heart on any book to save it to your wishlist, and we’ll tell
                you if its price drops.
              </p>
              <Button asChild variant="brand">
                <Link to="/listings">Browse books</Link>
              </Button>
            </div>
          ) : (
            <ul className="flex flex-col gap-3" data-testid="notifications">
              {list.data.items.map((item) => (
                <NotificationItem key={item.id} item={item} />
              ))}
            </ul>
          )}
        </div>
      </PageBody>
    </div>
  );
}

function NotificationItem({ item }: { item: AppNotification }) {
  const Icon = item.kind === 'wishlist_price_drop' ? Tag : Heart;
  const body = (
    <>
      <div className="w-14 shrink-0">
        {item.listing ? (
          <BookCover
            size="thumb"
            title={item.listing.title}
            authors={item.listing.authors}
            isbn13={item.listing.isbn13}
            coverUrl={item.listing.photoUrl ? photoThumbUrl(item.listing.photoUrl) : item.listing.coverUrl}
          />
        ) : (
          <span className="grid aspect-[3/4] place-items-center rounded-lg bg-paper-deep">
            <Icon aria-hidden="true" className="size-5 text-ink-muted" />
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 text-sm font-semibold text-ink">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-brand" />
          {item.title}
          {!item.read ? (
            <span className="rounded-full bg-brand px-2 py-0.5 text-[0.7rem] font-bold text-brand-foreground">
              New
            </span>
          ) : null}
        </p>
        <p className="mt-1 break-words text-ink-soft" data-testid="notification-body">
          {item.body}
        </p>
        <p className="mt-1 text-xs text-ink-muted">
          <time dateTime={item.createdAt}>{WHEN.format(new Date(item.createdAt))}</time>
        </p>
      </div>
    </>
  );
  const className = cn(
    'flex gap-4 rounded-xl border p-4 shadow-card transition-colors',
    item.read ? 'border-line bg-paper' : 'border-brand/30 bg-brand-soft/40',
  );
  return (
    <li data-testid="notification" data-read={item.read}>
      {item.listing?.slug ? (
        <Link to={`/listing/${item.listing.slug}`} className={cn(className, 'hover:border-ink/25')}>
          {body}
        </Link>
      ) : (
        <div className={className}>{body}</div>
      )}
    </li>
  );
}
