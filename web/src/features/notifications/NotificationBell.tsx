import { Bell } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/**
 * Keeps the member's notifications current without polling: the member's own realtime stream
 * (`realtime.events`, docs/realtime.md) says when a notification is written or read, here or in
 * another tab or app, and the count and the list are read again. When the stream (re)starts,
 * they are read once too, so nothing that happened while it was down is missed.
 */
export function useLiveNotifications(): void {
  const utils = trpc.useUtils();
  trpc.realtime.events.useSubscription(undefined, {
    onStarted: () => {
      void utils.notifications.unreadCount.invalidate();
    },
    onData: ({ data }) => {
      if (!data.kind.startsWith('notification.')) return;
      void utils.notifications.unreadCount.invalidate();
      void utils.notifications.list.invalidate();
    },
  });
}

/** The header's bell for a signed-in person: a link to their notifications with the unread count, live. */
export function NotificationBell() {
  useLiveNotifications();
  const unread = trpc.notifications.unreadCount.useQuery(undefined, { staleTime: 60_000 });
  const count = unread.data?.unread ?? 0;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      to="/account/notifications"
      data-testid="notification-bell"
      aria-label={count ? `Notifications: ${count} unread` : 'Notifications'}
      className="relative grid size-9 place-items-center rounded-full text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink"
    >
      <Bell aria-hidden="true" className="size-5" />
      {count ? (
        <span
          data-testid="notification-count"
          aria-live="polite"
          className={cn(
            'absolute -top-0.5 -right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-brand px-1 text-[0.7rem] leading-none font-bold text-brand-foreground ring-2 ring-paper',
          )}
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
