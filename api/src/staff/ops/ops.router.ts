import { ADMIN_PERIODS } from '@reshelf/contracts';
import { z } from 'zod';
import { router, tierProcedure } from '../../trpc.ts';
import { createStaffUser, exportOrders, grantRole, revokeRole } from './ops.service.ts';
import { ROLE_GRANTS, STAFF_GRANTS } from './roles.ts';

const email = z
  .string('Give an email address')
  .trim()
  .max(254, 'An email address is at most 254 characters')
  .pipe(z.email('Give an email address like name@example.co.uk'))
  .meta({ examples: ['moderator@reshelf.test'] });

const roleChange = z.object({
  email,
  role: z.enum(ROLE_GRANTS, `Choose one of ${ROLE_GRANTS.join(', ')}`),
});

const roleChangeResult = z.object({
  userId: z.uuid(),
  email: z.string(),
  role: z.enum(ROLE_GRANTS),
  granted: z.boolean(),
});

const orderRowSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  status: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  dispatchedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  /** The first book's title and ISBN; `items` has every book (decision 0043). */
  title: z.string(),
  isbn13: z.string().nullable(),
  sellerId: z.uuid(),
  buyerId: z.uuid(),
  charity: z.string().nullable(),
  itemCount: z.number().int(),
  items: z.array(
    z.object({
      listingId: z.uuid(),
      title: z.string(),
      isbn13: z.string().nullable(),
      priceMinor: z.number().int(),
      bundleDiscountMinor: z.number().int(),
      discountMinor: z.number().int(),
      protectionMinor: z.number().int(),
      refundedMinor: z.number().int(),
    }),
  ),
  /** The item subtotal (every book's price). */
  itemMinor: z.number().int(),
  bundleDiscountMinor: z.number().int(),
  postageMinor: z.number().int(),
  protectionMinor: z.number().int(),
  discountMinor: z.number().int(),
  totalMinor: z.number().int(),
});

const actor = (ctx: {
  user: { userId: string };
  adminTier: Parameters<typeof grantRole>[1]['tier'];
  adminLevel: number;
}) => ({
  userId: ctx.user.userId,
  tier: ctx.adminTier,
  level: ctx.adminLevel,
});

/** Operators' procedures (global-admin tiers): `pnpm ops`, and the REST API for scripts. */
export const opsRouter = router({
  /** The orders paid in a period (Europe/London), for `pnpm ops export-orders`. */
  exportOrders: tierProcedure(3)
    .meta({
      openapi: {
        operationId: 'ops-exportOrders',
        method: 'GET',
        path: '/admin/orders/export',
        tags: ['Operations'],
        summary: 'Orders paid in a period',
      },
    })
    .input(z.object({ period: z.enum(ADMIN_PERIODS, 'Choose today, mtd, last30 or ytd').default('mtd') }))
    .output(
      z.object({
        period: z.enum(ADMIN_PERIODS),
        from: z.string(),
        to: z.string(),
        orders: z.array(orderRowSchema),
      }),
    )
    .query(({ ctx, input }) => exportOrders(ctx.db, input.period)),

  /** A new staff account (admin or moderator), emailed a link to set its password. */
  createStaffUser: tierProcedure(3)
    .meta({
      openapi: {
        operationId: 'ops-createStaffUser',
        method: 'POST',
        path: '/admin/staff',
        tags: ['Operations'],
        summary: 'Create a staff account',
      },
    })
    .input(
      z.object({
        email: email.meta({ examples: ['new.moderator@reshelf.test'] }),
        displayName: z
          .string('Give a display name')
          .trim()
          .min(1, 'Give a display name')
          .max(60, 'A display name is at most 60 characters')
          .meta({ examples: ['New Moderator'] }),
        role: z.enum(STAFF_GRANTS, 'Choose admin or moderator'),
      }),
    )
    .output(
      z.object({
        userId: z.uuid(),
        email: z.string(),
        role: z.enum(STAFF_GRANTS),
        passwordEmailSent: z.literal(true),
      }),
    )
    .mutation(({ ctx, input }) => {
      const origin = ctx.config.siteOrigin;
      return createStaffUser(
        ctx.db,
        ctx.identity,
        { confirmUrl: `${origin}/auth/confirm`, resetUrl: `${origin}/reset-password` },
        actor(ctx),
        input,
      );
    }),

  /** Grants a staff role (ops_admin and above) or a global-admin tier (super_admin). */
  grantRole: tierProcedure(3)
    .meta({
      openapi: {
        operationId: 'ops-grantRole',
        method: 'POST',
        path: '/admin/roles',
        tags: ['Operations'],
        summary: 'Grant a role',
      },
    })
    .input(roleChange)
    .output(roleChangeResult)
    .mutation(({ ctx, input }) => grantRole(ctx.db, actor(ctx), input)),

  /** Withdraws a staff role, or deactivates a global-admin tier (never the caller's own). */
  revokeRole: tierProcedure(3)
    .meta({
      openapi: {
        operationId: 'ops-revokeRole',
        method: 'POST',
        path: '/admin/roles/revoke',
        tags: ['Operations'],
        summary: 'Withdraw a role',
      },
    })
    .input(roleChange)
    .output(roleChangeResult)
    .mutation(({ ctx, input }) => revokeRole(ctx.db, actor(ctx), input)),
});
