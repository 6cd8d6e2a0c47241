/** People for staff (/admin/users): search, view, suspend, moderator role. Admins only. */
import { businessSellerSchema, traderStatusSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { adminProcedure, router } from '../../trpc.ts';
import { getUser, searchUsers, setModerator, setSuspended } from './users.service.ts';

const summary = {
  id: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
  roles: z.array(z.string()),
  suspended: z.boolean(),
  createdAt: z.string(),
};
const summarySchema = z.object(summary);
const detailSchema = z.object({
  ...summary,
  emailConfirmed: z.boolean(),
  trades: traderStatusSchema.shape.answer,
  business: businessSellerSchema.nullable(),
  listings: z.object({ total: z.number(), active: z.number() }),
  orders: z.object({
    bought: z.number(),
    sold: z.number(),
    recent: z.array(
      z.object({
        id: z.string(),
        reference: z.string(),
        side: z.enum(['bought', 'sold']),
        status: z.string(),
        totalMinor: z.number(),
        createdAt: z.string(),
      }),
    ),
  }),
});
const userId = z.uuid('Choose a person from the list');

export const usersRouter = router({
  search: adminProcedure
    .input(
      z.object({
        q: z.string().trim().max(200, 'Use at most 200 characters').optional(),
        limit: z.number().int().min(1).max(100).default(50),
      }),
    )
    .output(z.array(summarySchema))
    .query(({ ctx, input }) => searchUsers(ctx.db, input)),

  get: adminProcedure
    .input(z.object({ userId }))
    .output(detailSchema)
    .query(({ ctx, input }) => getUser(ctx.db, input.userId)),

  setSuspended: adminProcedure
    .input(
      z.object({
        userId,
        suspended: z.boolean('Choose suspend or unsuspend'),
        reason: z
          .string()
          .trim()
          .min(3, 'Give a reason (at least 3 characters)')
          .max(500, 'Use at most 500 characters'),
      }),
    )
    .output(detailSchema)
    .mutation(({ ctx, input }) => setSuspended(ctx.db, ctx.user.userId, input)),

  setModerator: adminProcedure
    .input(z.object({ userId, moderator: z.boolean('Choose grant or revoke') }))
    .output(detailSchema)
    .mutation(({ ctx, input }) => setModerator(ctx.db, ctx.user.userId, input)),
});
