import { contactInputSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { publicProcedure, router, staffProcedure } from '../../trpc.ts';
import { visitorKey } from '../visitor.ts';
import { listContactMessages, submitContactMessage } from './contact.service.ts';

const messageSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  topic: z.string(),
  message: z.string(),
  userId: z.string().uuid().nullable(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});

const cursorSchema = z.object({ createdAt: z.string().datetime({ offset: true }), id: z.string().uuid() });

export const contactRouter = router({
  /** Staff read the contact form's messages, newest first, a page at a time. */
  list: staffProcedure
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(100).default(50),
          before: cursorSchema.optional(),
          unhandledOnly: z.boolean().default(false),
        })
        .default({ limit: 50, unhandledOnly: false }),
    )
    .output(z.object({ items: z.array(messageSchema), next: cursorSchema.nullable() }))
    .query(({ ctx, input }) => listContactMessages(ctx.db, input)),

  submit: publicProcedure
    .input(contactInputSchema)
    .output(z.object({ received: z.literal(true), reference: z.string() }))
    .mutation(({ ctx, input }) =>
      submitContactMessage(ctx.db, input, { senderKey: visitorKey(ctx, 'contact') }),
    ),
});
