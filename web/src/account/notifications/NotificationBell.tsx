import { Bell } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useLiveNotifications } from './hooks.ts';

/** The header's bell for a signed-in person: a link to their notifications with the unread count, live. */
export function NotificationBell() {
  useLiveNotifications();
  const unread = trpc.account.notifications.unreadCount.useQuery(undefined, { staleTime: 60_000 });
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
