import { type AppNotification, NOTIFICATION_KIND_INFO, type NotificationGroup } from '@reshelf/contracts';
import {
  BellOff,
  BellRing,
  BookHeart,
  Check,
  CheckCheck,
  HandCoins,
  Heart,
  HeartHandshake,
  Loader2,
  type LucideIcon,
  MessageCircle,
  Package,
  Settings,
  ShieldCheck,
  Star,
  TriangleAlert,
} from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { leadThumb } from '../../catalogue/index.ts';
import { BookCover } from '../../components/BookCover.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView } from '../../kit/index.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useMarkNotificationsRead } from './hooks.ts';

const WHEN = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

const PAGE_SIZE = 20;

const GROUP_ICONS: Record<NotificationGroup, LucideIcon> = {
  offers: HandCoins,
  orders: Package,
  problems: TriangleAlert,
  messages: MessageCircle,
  wishlist: Heart,
  charity: HeartHandshake,
  searches: BellRing,
  wants: BookHeart,
  reviews: Star,
  safety: ShieldCheck,
};

/**
 * /account/notifications: everything the member was told, newest first, each leading to the
 * thing it is about. New ones arrive without a reload (the bell's live stream invalidates the
 * list); opening one marks it read, and so do its "Mark read" and "Mark all as read".
 */
export function NotificationsPage() {
  usePageMeta('Notifications');
  const list = trpc.account.notifications.list.useInfiniteQuery(
    { limit: PAGE_SIZE },
    { getNextPageParam: (page) => page.nextCursor, staleTime: 0 },
  );
  const markRead = useMarkNotificationsRead();
  const unread = list.data?.pages[0]?.unread ?? 0;

  return (
    <div>
      <PageHeader
        title="Notifications"
        description="Offers, orders, problems and payouts, your wishlist and your charity: what happened, with a link to it."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        <div className="mt-5 flex flex-wrap items-center gap-3">
          {unread ? (
            <Button
              variant="outline"
              disabled={markRead.isPending}
              onClick={() => markRead.mutate({ ids: 'all' })}
              data-testid="mark-all-read"
            >
              {markRead.isPending ? (
                <Loader2 aria-hidden="true" className="animate-spin" />
              ) : (
                <CheckCheck aria-hidden="true" />
              )}
              Mark all as read
            </Button>
          ) : null}
          <Button asChild variant="ghost">
            <Link to="/account/settings#emails">
              <Settings aria-hidden="true" />
              Email settings
            </Link>
          </Button>
        </div>
      </PageHeader>
      <PageBody>
        <div className="max-w-3xl">
          <QueryView
            query={list}
            pending={
              <RowsSkeleton
                label="Loading your notifications"
                rows={Array(3).fill('h-24 w-full rounded-xl')}
              />
            }
            error={(_message, retry) => (
              <QueryError what="your notifications" onRetry={retry} retrying={list.isFetching} />
            )}
            isEmpty={(data) => data.pages.every((page) => page.items.length === 0)}
            empty={
              <div
                data-testid="notifications-empty"
                className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted"
              >
                <BellOff aria-hidden="true" className="size-6" />
                <p>
                  No notifications yet. We’ll tell you here when someone makes you an offer, when your orders
                  and sales move on, and when a book on your wishlist drops in price.
                </p>
                <Button asChild variant="brand">
                  <Link to="/listings">Browse books</Link>
                </Button>
              </div>
            }
          >
            {(data) => (
              <>
                <p
                  className="mb-3 text-sm text-ink-muted"
                  aria-live="polite"
                  data-testid="notifications-unread"
                >
                  {unread ? `${unread} unread` : 'All read'}
                </p>
                <ul className="flex flex-col gap-3" data-testid="notifications">
                  {data.pages
                    .flatMap((page) => page.items)
                    .map((item) => (
                      <NotificationItem
                        key={item.id}
                        item={item}
                        onRead={() => markRead.mutate({ ids: [item.id] })}
                        marking={markRead.isPending}
                      />
                    ))}
                </ul>
                {list.hasNextPage ? (
                  <Button
                    variant="outline"
                    className="mt-5 w-full sm:w-auto"
                    disabled={list.isFetchingNextPage}
                    onClick={() => void list.fetchNextPage()}
                  >
                    {list.isFetchingNextPage ? <Loader2 aria-hidden="true" className="animate-spin" /> : null}
                    Show older notifications
                  </Button>
                ) : null}
              </>
            )}
          </QueryView>
        </div>
      </PageBody>
    </div>
  );
}

function NotificationItem({
  item,
  onRead,
  marking,
}: {
  item: AppNotification;
  onRead: () => void;
  marking: boolean;
}) {
  const navigate = useNavigate();
  const Icon = GROUP_ICONS[NOTIFICATION_KIND_INFO[item.kind].group];
  const content = (
    <>
      <div className="w-12 shrink-0 sm:w-14">
        {item.listing ? (
          <BookCover
            size="thumb"
            title={item.listing.title}
            authors={item.listing.authors}
            isbn13={item.listing.isbn13}
            coverUrl={leadThumb(item.listing.photoUrl, item.listing.coverUrl)}
          />
        ) : (
          <span className="grid aspect-[3/4] place-items-center rounded-lg bg-paper-deep">
            <Icon aria-hidden="true" className="size-5 text-ink-muted" />
          </span>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-semibold text-ink">
          <Icon aria-hidden="true" className="size-4 shrink-0 text-brand" />
          <span className="min-w-0 break-words" data-testid="notification-title">
            {item.title}
          </span>
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
  const box = cn(
    'flex min-w-0 flex-1 gap-3 rounded-xl p-4 sm:gap-4',
    item.link ? 'transition-colors hover:bg-paper-deep/60' : '',
  );
  return (
    <li
      data-testid="notification"
      data-read={item.read}
      data-kind={item.kind}
      className={cn(
        'flex flex-col rounded-xl border shadow-card sm:flex-row sm:items-start',
        item.read ? 'border-line bg-paper' : 'border-brand/30 bg-brand-soft/40',
      )}
    >
      {item.link ? (
        <Link
          to={item.link}
          className={box}
          onClick={(event) => {
            if (item.read || event.metaKey || event.ctrlKey || event.shiftKey) return;
            event.preventDefault();
            onRead();
            navigate(item.link as string);
          }}
        >
          {content}
        </Link>
      ) : (
        <div className={box}>{content}</div>
      )}
      {!item.read ? (
        <div className="flex justify-end px-4 pb-3 sm:p-3">
          <Button
            variant="ghost"
            size="sm"
            disabled={marking}
            onClick={onRead}
            aria-label={`Mark read: ${item.title}`}
          >
            <Check aria-hidden="true" />
            Mark read
          </Button>
        </div>
      ) : null}
    </li>
  );
}
