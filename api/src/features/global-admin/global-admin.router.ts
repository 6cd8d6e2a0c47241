import { z } from 'zod';
import { router, tierProcedure } from '../../trpc.ts';
import { EMAIL_TEMPLATE_CATALOGUE } from '../mail/catalogue.ts';
import { listAdminUsers } from './global-admin.service.ts';

export const globalAdminRouter = router({
  /** /global-admin: the caller's tier and the admin records (any active tier). */
  overview: tierProcedure(1)
    .input(z.void())
    .output(
      z.object({
        tier: z.string(),
        level: z.number().int(),
        admins: z.array(
          z.object({
            userId: z.string().uuid(),
            email: z.string(),
            displayName: z.string(),
            tier: z.string(),
            isActive: z.boolean(),
            since: z.string(),
          }),
        ),
      }),
    )
    .query(async ({ ctx }) => ({
      tier: ctx.adminTier,
      level: ctx.adminLevel,
      admins: await listAdminUsers(ctx.db),
    })),

  /** /global-admin/email-templates: support agents and above. */
  emailTemplates: tierProcedure(2)
    .input(z.void())
    .output(
      z.array(z.object({ key: z.string(), name: z.string(), subject: z.string(), sentWhen: z.string() })),
    )
    .query(() =>
      EMAIL_TEMPLATE_CATALOGUE.map(({ key, name, subject, sentWhen }) => ({ key, name, subject, sentWhen })),
    ),
});
