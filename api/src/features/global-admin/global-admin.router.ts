import { z } from 'zod';
import { router, tierProcedure } from '../../trpc.ts';
import {
  emailTemplateViewSchema,
  templateEditSchema,
  templateKeySchema,
} from '../email-templates/email-templates.router.ts';
import {
  listEmailTemplates,
  publishEmailTemplateDraft,
  saveEmailTemplateDraft,
} from '../email-templates/email-templates.service.ts';
import { listAdminUsers } from './global-admin.service.ts';

const done = z.object({ ok: z.literal(true) });

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

  /**
   * /global-admin/email-templates: support agents and above. The same templates as
   * /admin/emails, with the version in use and any draft.
   */
  emailTemplates: tierProcedure(2)
    .input(z.void())
    .output(z.array(emailTemplateViewSchema))
    .query(({ ctx }) => listEmailTemplates(ctx.db)),

  /** Support agents and above write drafts; nothing is sent from a draft. */
  saveEmailTemplateDraft: tierProcedure(2)
    .input(templateEditSchema)
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await saveEmailTemplateDraft(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),

  /** Ops admins and above publish a draft: it is sent from then on. */
  publishEmailTemplate: tierProcedure(3)
    .input(z.object({ key: templateKeySchema }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await publishEmailTemplateDraft(ctx.db, ctx.user.userId, input.key);
      return { ok: true as const };
    }),
});
