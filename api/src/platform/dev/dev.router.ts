/**
 * Development-only tools, for the developer at this machine: in production, or to a client
 * that is not on this machine (the mailbox holds password-reset links), every
 * procedure here answers NOT_FOUND, as if it did not exist.
 */
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { isLoopbackAddress } from '../../http/loopback.ts';
import { type Context, publicProcedure, router } from '../../trpc.ts';

function assertDevelopment(ctx: Context) {
  if (ctx.config.env === 'production' || !isLoopbackAddress(ctx.req.ip)) {
    throw new AppError('NOT_FOUND', 'Not found');
  }
}

const messageSchema = z.object({
  id: z.string().uuid(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  /** Queued (the sender has not picked it up yet), sent, failed or suppressed. */
  status: z.string(),
  createdAt: z.string(),
});

export const devRouter = router({
  mailbox: publicProcedure
    .input(z.object({ to: z.string().trim().max(320).optional() }).default({}))
    .output(z.array(messageSchema))
    .query(async ({ ctx, input }) => {
      assertDevelopment(ctx);
      let query = ctx.db
        .selectFrom('email_outbox')
        // Every message, whatever its delivery has reached: a test reads a link the moment the
        // action that queued it has answered.
        .select(['id', 'to_address', 'subject', 'template', 'text_body', 'html_body', 'status', 'created_at'])
        .orderBy('created_at', 'desc')
        .limit(100);
      if (input.to) query = query.where('to_address', 'ilike', `%${input.to.replace(/[%_\\]/g, '\\$&')}%`);
      const rows = await query.execute();
      return rows.map((row) => ({
        id: row.id,
        to: row.to_address,
        subject: row.subject,
        template: row.template,
        text: row.text_body,
        html: row.html_body,
        status: row.status,
        createdAt: row.created_at.toISOString(),
      }));
    }),
});
