/**
 * The member's notifications and email settings. Each hook owns what its step changes in the
 * cache: marking read sets the bell's count from the answer and reads the list again; saving an
 * email setting puts the saved settings in place; the live stream reads the count and list again.
 */
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

/** Marks some notifications (or 'all') read; a refusal is a toast. */
export function useMarkNotificationsRead() {
  const utils = trpc.useUtils();
  return trpc.account.notifications.markRead.useMutation({
    onSuccess: ({ unread }) => {
      utils.account.notifications.unreadCount.setData(undefined, { unread });
      void utils.account.notifications.list.invalidate();
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}

/** Switches one optional email on or off; says so in a toast either way. */
export function useSetEmailPreference() {
  const utils = trpc.useUtils();
  return trpc.account.notifications.setEmailPreference.useMutation({
    onSuccess: (next) => {
      utils.account.notifications.emailPreferences.setData(undefined, next);
      notify.success('Email settings saved');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}

/**
 * Keeps the member's notifications current without polling: the member's own realtime stream
 * (`platform.realtime.events`, docs/realtime.md) says when a notification is written or read, here or in
 * another tab or app, and the count and the list are read again. When the stream (re)starts,
 * they are read once too, so nothing that happened while it was down is missed.
 */
export function useLiveNotifications(): void {
  const utils = trpc.useUtils();
  trpc.platform.realtime.events.useSubscription(undefined, {
    onStarted: () => {
      void utils.account.notifications.unreadCount.invalidate();
    },
    onData: ({ data }) => {
      if (!data.kind.startsWith('notification.')) return;
      void utils.account.notifications.unreadCount.invalidate();
      void utils.account.notifications.list.invalidate();
    },
  });
}
