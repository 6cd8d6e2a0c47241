/**
 * Messages (`messages`): a member's conversations about listings and orders, and the live stream
 * of what changes in them. Staff read a conversation through a report or a dispute
 * (`community.messages.staff.thread`), audited. See messages.service.ts and decision 0035.
 */
import { MESSAGE_LIMITS, messageBodySchema, reportFieldsSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { ownNotificationKind } from '../../platform/notifications/notifications.service.ts';
import { userTopic } from '../../platform/realtime/realtime.ts';
import { resumeInputSchema, trackedEvents } from '../../platform/realtime/stream.ts';
import { authedProcedure, router, staffProcedure } from '../../trpc.ts';
import {
  blockMember,
  getThread,
  listThreads,
  markThreadRead,
  reportMessage,
  sendMessage,
  staffReadDisputeThread,
  staffReadThread,
  startListingThread,
  startOrderThread,
  threadOfMessage,
  threadSummaryFor,
  unblockMember,
  unreadCount,
} from './messages.service.ts';

const threadId = z.uuid('Choose a conversation');
const ok = z.object({ ok: z.literal(true) });

export const messagesRouter = router({
  /** The caller's conversations, newest first; `q` searches book titles and names. */
  threads: authedProcedure
    .input(
      z
        .object({
          q: z
            .string()
            .max(MESSAGE_LIMITS.maxSearch, `Search with at most ${MESSAGE_LIMITS.maxSearch} characters`)
            .optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => listThreads(ctx.db, ctx.user.userId, { q: input?.q })),

  /** Unread messages (and conversations with some), for the header link and the tab title. */
  unread: authedProcedure.input(z.void()).query(({ ctx }) => unreadCount(ctx.db, ctx.user.userId)),

  /** One conversation: the book, the order, the messages and the system lines. */
  thread: authedProcedure
    .input(z.object({ threadId }))
    .query(({ ctx, input }) => getThread(ctx.db, ctx.user.userId, input.threadId)),

  /** "Message the seller" on a listing: the caller's conversation about it (started if need be). */
  startForListing: authedProcedure
    .input(z.object({ listingId: z.uuid('Choose a listing') }))
    .mutation(({ ctx, input }) => startListingThread(ctx.db, ctx.user.userId, input.listingId)),

  /** "Message" on an order page, buyer or seller: the conversation about the order. */
  startForOrder: authedProcedure
    .input(z.object({ orderId: z.uuid('Choose an order') }))
    .mutation(({ ctx, input }) => startOrderThread(ctx.db, ctx.user.userId, input.orderId)),

  send: authedProcedure
    .input(z.intersection(z.object({ threadId }), messageBodySchema))
    .mutation(({ ctx, input }) =>
      sendMessage(ctx.deps, ctx.user.userId, {
        threadId: input.threadId,
        text: input.text,
        photos: input.photos,
      }),
    ),

  /** Read receipts: the other side's messages in the thread, read now. */
  markRead: authedProcedure
    .input(z.object({ threadId }))
    .mutation(({ ctx, input }) => markThreadRead(ctx.db, ctx.user.userId, input.threadId)),

  /** Blocks the other member of the conversation (no new messages either way). */
  block: authedProcedure
    .input(z.object({ threadId }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await blockMember(ctx.db, ctx.user.userId, input.threadId);
      return { ok: true as const };
    }),

  unblock: authedProcedure
    .input(z.object({ threadId }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await unblockMember(ctx.db, ctx.user.userId, input.threadId);
      return { ok: true as const };
    }),

  /** Reports a message the other member sent to the Reshelf team. */
  report: authedProcedure
    .input(reportFieldsSchema('message').extend({ messageId: z.uuid('Choose a message to report') }))
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) => reportMessage(ctx.db, ctx.user.userId, input)),

  /**
   * What changes in the caller's conversations, live: their own user topic (never one from the
   * input), resumed from `lastEventId`. Each message event arrives as the thread it is in; an
   * offer or order event as its kind, for a thread on screen to read itself again.
   */
  live: authedProcedure.input(resumeInputSchema).subscription(({ ctx, input, signal }) =>
    trackedEvents(ctx.realtime, { topic: userTopic(ctx.user.userId), input, signal }, async (event) => {
      if (!event.entityId) return null;
      if (event.kind === 'message.sent') {
        const id = await threadOfMessage(ctx.db, ctx.user.userId, event.entityId);
        if (!id) return null;
        const thread = await threadSummaryFor(ctx.db, ctx.user.userId, id);
        return thread ? { kind: event.kind, messageId: event.entityId, thread } : null;
      }
      if (event.kind === 'message.read' || event.kind === 'message.blocked') {
        const thread = await threadSummaryFor(ctx.db, ctx.user.userId, event.entityId);
        return thread ? { kind: event.kind, messageId: null, thread } : null;
      }
      // Offers, orders and notifications about them: an open thread reads itself again (it shows
      // them as system lines). Nothing about them is sent: they are the caller's own events.
      // A message's own notification adds nothing to its `message.sent`.
      if (
        event.kind === 'notification.created' &&
        (await ownNotificationKind(ctx.db, ctx.user.userId, event.entityId)) === 'message_received'
      ) {
        return null;
      }
      if (/^(offer|order|notification)\./.test(event.kind)) {
        return { kind: event.kind, messageId: null, thread: null };
      }
      return null;
    }),
  ),
});

export const staffMessagesRouter = router({
  /** A conversation, read through a report on one of its messages or a dispute on its order; audited. */
  thread: staffProcedure
    .input(
      z
        .object({
          threadId,
          reportId: z.uuid('Choose a report').optional(),
          disputeId: z.uuid('Choose a dispute').optional(),
        })
        .refine((value) => Boolean(value.reportId) !== Boolean(value.disputeId), {
          message: 'Say which report or dispute you are reading this conversation for',
          path: ['reportId'],
        }),
    )
    .query(({ ctx, input }) => staffReadThread(ctx.db, ctx.user.userId, input)),

  /** The conversation between a dispute's buyer and seller (null if none), read through it; audited. */
  forDispute: staffProcedure
    .input(z.object({ disputeId: z.uuid('Choose a dispute') }))
    .query(({ ctx, input }) => staffReadDisputeThread(ctx.db, ctx.user.userId, input.disputeId)),
});
