/**
 * The member's notifications and email settings. Each hook owns what its step changes in the
 * cache: marking read sets the bell's count from the answer and reads the list again; saving an
 * email setting puts the saved settings in place.
 */
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

/** Marks some notifications (or 'all') read; a refusal is a toast. */
export function useMarkNotificationsRead() {
  const utils = trpc.useUtils();
  return trpc.notifications.markRead.useMutation({
    onSuccess: ({ unread }) => {
      utils.notifications.unreadCount.setData(undefined, { unread });
      void utils.notifications.list.invalidate();
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}

/** Switches one optional email on or off; says so in a toast either way. */
export function useSetEmailPreference() {
  const utils = trpc.useUtils();
  return trpc.notifications.setEmailPreference.useMutation({
    onSuccess: (next) => {
      utils.notifications.emailPreferences.setData(undefined, next);
      notify.success('Email settings saved');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
}
