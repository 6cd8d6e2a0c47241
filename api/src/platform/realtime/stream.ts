/**
 * Exposing realtime events as a tRPC subscription (docs/realtime.md). A procedure checks access
 * first (its builder, and whatever says the caller may follow this topic), then hands the
 * topic to `trackedEvents`, which yields each event as `tracked(cursor, data)`: the client's
 * EventSource sends the cursor back as Last-Event-ID when it reconnects, and the stream resumes
 * there, nothing missed and nothing twice.
 */
import { TRPCError, tracked } from '@trpc/server';
import { z } from 'zod';
import { asAppError } from '../../errors.ts';
import { Cursor, CursorError, type StoredEvent } from './cursor.ts';
import type { RealtimeHub } from './hub.ts';

/** The one input every subscription takes: where to resume (set by tRPC from Last-Event-ID). */
export const resumeInputSchema = z
  .strictObject({
    lastEventId: z
      .string()
      .max(4096)
      .refine(
        (text) => {
          try {
            Cursor.parse(text);
            return true;
          } catch (error) {
            if (error instanceof CursorError) return false;
            throw error;
          }
        },
        { message: 'Not a position in this stream: subscribe again without lastEventId.' },
      )
      .nullish(),
  })
  .optional();

export type ResumeInput = z.infer<typeof resumeInputSchema>;

/**
 * The events of `topic` from the client's cursor (or from now), each turned into what the
 * client receives by `resolve` (reading the thing with the caller's access; null skips it).
 */
export async function* trackedEvents<T>(
  hub: RealtimeHub,
  options: { topic: string; input: ResumeInput; signal: AbortSignal | undefined },
  resolve: (event: StoredEvent) => Promise<T | null> | T | null,
) {
  const events = hub.subscribe({
    topic: options.topic,
    lastEventId: options.input?.lastEventId ?? null,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const { cursor, event } of events) {
    let data: T | null;
    try {
      data = await resolve(event);
    } catch (error) {
      // The client retries these (a retryable code); nothing about the failure leaks.
      const known = asAppError(error);
      throw new TRPCError({
        code: known?.code === 'UNAVAILABLE' ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
        message: known?.code === 'UNAVAILABLE' ? known.message : 'Something went wrong on our side.',
        cause: error,
      });
    }
    if (data !== null) yield tracked(cursor, data);
  }
}
