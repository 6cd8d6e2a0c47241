/**
 * Notifications (decision 0036): the member's list (keyset pages), the unread count for the
 * bell (kept live by `platform.realtime.events`: `notification.created` / `notification.read`), marking
 * read, and the email preferences of /account/settings.
 */
import {
  emailPreferencesSchema,
  markNotificationsReadInputSchema,
  notificationListInputSchema,
  notificationListSchema,
  setEmailPreferenceInputSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import {
  listNotifications,
  markRead,
  unreadCount,
} from '../../platform/notifications/notifications.service.ts';
import { authedProcedure, router } from '../../trpc.ts';
import { getEmailPreferences, setEmailPreference } from './preferences.ts';

export const notificationsRouter = router({
  list: authedProcedure
    .input(notificationListInputSchema)
    .output(notificationListSchema)
    .query(({ ctx, input }) => listNotifications(ctx.db, ctx.user.userId, input)),
  unreadCount: authedProcedure
    .input(z.void())
    .output(z.object({ unread: z.number().int() }))
    .query(async ({ ctx }) => ({ unread: await unreadCount(ctx.db, ctx.user.userId) })),
  markRead: authedProcedure
    .input(markNotificationsReadInputSchema)
    .output(z.object({ unread: z.number().int() }))
    .mutation(async ({ ctx, input }) => ({ unread: await markRead(ctx.db, ctx.user.userId, input.ids) })),
  emailPreferences: authedProcedure
    .input(z.void())
    .output(emailPreferencesSchema)
    .query(({ ctx }) => getEmailPreferences(ctx.db, ctx.user.userId)),
  setEmailPreference: authedProcedure
    .input(setEmailPreferenceInputSchema)
    .output(emailPreferencesSchema)
    .mutation(({ ctx, input }) => setEmailPreference(ctx.db, ctx.user.userId, input.list, input.enabled)),
});
