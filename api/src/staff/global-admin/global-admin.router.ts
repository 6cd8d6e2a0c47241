import { ADMIN_TIER_NAMES } from '@reshelf/contracts';
import { z } from 'zod';
import { router, tierProcedure } from '../../trpc.ts';
import {
  emailTemplateViewSchema,
  renderedSchema,
  templateEditSchema,
  templateKeySchema,
} from '../email-templates/email-templates.schemas.ts';
import {
  discardEmailTemplateDraft,
  listEmailTemplates,
  previewEmailTemplate,
  publishEmailTemplateDraft,
  saveEmailTemplateDraft,
  sendTestEmail,
} from '../email-templates/email-templates.service.ts';
import { deactivateAdmin, listAdminUsers, setAdminTier } from './global-admin.service.ts';
import { platformHealth } from './health.service.ts';

const done = z.object({ ok: z.literal(true) });
const healthStatus = z.enum(['ok', 'warning', 'failing']);
const part = { status: healthStatus, problems: z.array(z.string()) };
const actor = (ctx: {
  user: { userId: string };
  adminTier: (typeof ADMIN_TIER_NAMES)[number];
  adminLevel: number;
}) => ({
  userId: ctx.user.userId,
  tier: ctx.adminTier,
  level: ctx.adminLevel,
});
const grantResult = z.object({
  userId: z.string(),
  email: z.string(),
  role: z.string(),
  granted: z.boolean(),
});

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

  /** /global-admin: database, job runner and mail outbox, read from PostgreSQL (any tier). */
  health: tierProcedure(1)
    .input(z.void())
    .output(
      z.object({
        checkedAt: z.string(),
        status: healthStatus,
        database: z.object({
          ...part,
          roundTripMs: z.number(),
          version: z.string(),
          sizeBytes: z.number(),
          connections: z.number().int(),
          migrationsApplied: z.number().int(),
          latestMigration: z.string().nullable(),
          migrationsPending: z.array(z.string()),
        }),
        jobs: z.object({
          ...part,
          runs: z.array(
            z.object({
              job: z.string(),
              lastStartedAt: z.string().nullable(),
              lastFinishedAt: z.string().nullable(),
              lastError: z.string().nullable(),
              runsLastDay: z.number().int(),
              failuresLastDay: z.number().int(),
            }),
          ),
        }),
        mail: z.object({
          ...part,
          transport: z.enum(['dev', 'smtp', 'resend']).nullable(),
          queued: z.number().int(),
          retrying: z.number().int(),
          oldestQueuedAt: z.string().nullable(),
          sending: z.number().int(),
          sentLastDay: z.number().int(),
          failedLastDay: z.number().int(),
          lastSentAt: z.string().nullable(),
          lastErrors: z.array(
            z.object({
              at: z.string(),
              template: z.string(),
              status: z.enum(['retrying', 'failed']),
              attempts: z.number().int(),
              error: z.string(),
            }),
          ),
        }),
      }),
    )
    .query(({ ctx }) => platformHealth(ctx.db, new Date(), { mailTransport: ctx.mailer.transport })),

  /** Super admins grant a tier, change one, or reactivate a record. Never their own. */
  setAdminTier: tierProcedure(4)
    .input(
      z.object({
        email: z.email('Enter the email address of an existing account').trim().max(320),
        tier: z.enum(ADMIN_TIER_NAMES, 'Choose a tier: super_admin, ops_admin, support_agent or read_only'),
      }),
    )
    .output(grantResult)
    .mutation(({ ctx, input }) => setAdminTier(ctx.db, actor(ctx), input)),

  /** Super admins deactivate a record: it stays listed and no longer grants access. */
  deactivateAdmin: tierProcedure(4)
    .input(z.object({ userId: z.uuid('Choose an admin record from the list') }))
    .output(grantResult)
    .mutation(({ ctx, input }) => deactivateAdmin(ctx.db, actor(ctx), input)),

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

  /** The edit as it would be sent, with sample values; problems come back as the error. */
  previewEmailTemplate: tierProcedure(2)
    .input(templateEditSchema)
    .output(renderedSchema)
    .query(({ input }) => previewEmailTemplate(input)),

  /** The edit, with sample values, to the caller's own address (the dev mailbox in development). */
  sendTestEmail: tierProcedure(2)
    .input(templateEditSchema)
    .output(z.object({ to: z.string(), subject: z.string() }))
    .mutation(({ ctx, input }) =>
      sendTestEmail(ctx.deps, { id: ctx.user.userId, email: ctx.user.email }, input),
    ),

  /** Support agents and above throw a draft away; the version in use stays. */
  discardEmailTemplateDraft: tierProcedure(2)
    .input(z.object({ key: templateKeySchema }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await discardEmailTemplateDraft(ctx.db, ctx.user.userId, input.key);
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
