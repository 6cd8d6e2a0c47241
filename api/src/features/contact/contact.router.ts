import { contactInputSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc.ts';
import { visitorKey } from '../listings/visitor.ts';
import { submitContactMessage } from './contact.service.ts';

/*
 * Staff read messages through listContactMessages (contact.service.ts); its procedure joins
 * this router once the staff access builder exists.
 */
export const contactRouter = router({
  submit: publicProcedure
    .input(contactInputSchema)
    .output(z.object({ received: z.literal(true), reference: z.string() }))
    .mutation(({ ctx, input }) =>
      submitContactMessage(ctx.db, input, { senderKey: visitorKey(ctx, 'contact') }),
    ),
});
