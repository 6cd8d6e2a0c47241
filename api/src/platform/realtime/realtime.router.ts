/**
 * `platform.realtime.events`: everything addressed to the signed-in member (their `user:<id>` topic), as
 * it happens, ids only: `{ kind, entityId, at }`. A client uses it to know what to read again
 * (the web invalidates its queries); features may offer richer subscriptions of their own.
 * The topic comes from the session, never from the input: nobody follows another's.
 */
import { authedProcedure, router } from '../../trpc.ts';
import { userTopic } from './realtime.ts';
import { resumeInputSchema, trackedEvents } from './stream.ts';

export const realtimeRouter = router({
  events: authedProcedure.input(resumeInputSchema).subscription(({ ctx, input, signal }) =>
    trackedEvents(ctx.realtime, { topic: userTopic(ctx.user.userId), input, signal }, (event) => ({
      kind: event.kind,
      entityId: event.entityId,
      at: event.createdAt.toISOString(),
    })),
  ),
});
