/** In-app notifications (issue 7): the list, the unread count for the header, marking read. */
import { notificationListSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { listNotifications, markRead, unreadCount } from './notifications.service.ts';

export const notificationsRouter = router({
  list: authedProcedure
    .input(z.object({ limit: z.number().int().min(1).max(100).default(50) }).default({ limit: 50 }))
    .output(notificationListSchema)
    .query(({ ctx, input }) => listNotifications(ctx.db, ctx.user.userId, input.limit)),
  unreadCount: authedProcedure
    .input(z.void())
    .output(z.object({ unread: z.number().int() }))
    .query(async ({ ctx }) => ({ unread: await unreadCount(ctx.db, ctx.user.userId) })),
  markRead: authedProcedure
    .input(
      z.object({
        ids: z.union([z.literal('all'), z.array(z.uuid()).max(100, 'Mark at most 100 at a time')]),
      }),
    )
    .output(z.object({ unread: z.number().int() }))
    .mutation(async ({ ctx, input }) => ({ unread: await markRead(ctx.db, ctx.user.userId, input.ids) })),
});
