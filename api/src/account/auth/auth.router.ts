import {
  CLIENT_HEADER,
  displayNameSchema,
  emailSchema,
  meSchema,
  newPasswordSchema,
  nextPathSchema,
  oneTimeTokenSchema,
  passwordSchema,
  signInResultSchema,
  withNext,
} from '@reshelf/contracts';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { Session } from '../../platform/identity/port.ts';
import { requestInfo } from '../../platform/identity/resolve-auth.ts';
import { clearSessionCookies, setSessionCookies } from '../../platform/identity/session-cookies.ts';
import { type Context, publicProcedure, router } from '../../trpc.ts';
import * as auth from './auth.service.ts';

/**
 * Emailed links lead to the site's one origin (config.siteOrigin). `next`, already checked as a
 * same-site path, rides along on the confirmation link so that the person ends up where they
 * were going when they signed up (a checkout they started, say).
 */
function deps(ctx: Context, next?: string): auth.AuthDeps {
  const origin = ctx.config.siteOrigin;
  return {
    db: ctx.db,
    identity: ctx.identity,
    production: ctx.config.env === 'production',
    links: {
      confirmUrl: withNext(`${origin}/auth/confirm`, next),
      resetUrl: `${origin}/reset-password`,
    },
    info: requestInfo(ctx.req),
  };
}

/** Browsers (the web client) get httpOnly cookies; other clients get the tokens. */
function deliver(ctx: Context, session: Session) {
  if (ctx.req.headers[CLIENT_HEADER] === 'web') {
    setSessionCookies(ctx.res, ctx.config, session);
    return undefined;
  }
  return {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresAt: session.expiresAt,
  };
}

async function signedIn(ctx: Context, session: Session) {
  const user = await auth.describeUser(ctx.db, ctx.identity, session.user.id, ctx.req.log);
  if (!user) throw new AppError('NOT_FOUND', 'That account no longer exists.');
  return { user, tokens: deliver(ctx, session) };
}

const ok = z.object({ ok: z.literal(true) });

/** What `me` answers a caller with no credential: declared, so /trpc sends it without the call. */
const SIGNED_OUT = { user: null };

export const authRouter = router({
  me: publicProcedure
    .meta({ anonymousAnswer: SIGNED_OUT })
    .input(z.void())
    .output(z.object({ user: meSchema.nullable() }))
    .query(async ({ ctx }) => {
      const claims = ctx.auth.claims;
      if (!claims) return SIGNED_OUT;
      return { user: await auth.describeUser(ctx.db, ctx.identity, claims.userId, ctx.req.log) };
    }),

  /** `next`: where to go once the address is confirmed and the account set up. */
  signUp: publicProcedure
    .input(
      z.object({
        email: emailSchema,
        password: newPasswordSchema,
        displayName: displayNameSchema,
        next: nextPathSchema.optional(),
      }),
    )
    .output(z.object({ email: z.string() }))
    .mutation(({ ctx, input: { next, ...input } }) => auth.signUp(deps(ctx, next), input)),

  resendConfirmation: publicProcedure
    .input(z.object({ email: emailSchema, next: nextPathSchema.optional() }))
    .output(z.object({ email: z.string() }))
    .mutation(({ ctx, input }) => auth.resendConfirmation(deps(ctx, input.next), input.email)),

  confirmEmail: publicProcedure
    .input(z.object({ token: oneTimeTokenSchema }))
    .output(signInResultSchema)
    .mutation(async ({ ctx, input }) => signedIn(ctx, await auth.confirmEmail(deps(ctx), input.token))),

  signIn: publicProcedure
    .input(z.object({ email: emailSchema, password: passwordSchema }))
    .output(signInResultSchema)
    .mutation(async ({ ctx, input }) => signedIn(ctx, await auth.signIn(deps(ctx), input))),

  refresh: publicProcedure
    .input(z.object({ refreshToken: z.string().min(20).max(200) }))
    .output(signInResultSchema)
    .mutation(async ({ ctx, input }) => signedIn(ctx, await auth.refresh(deps(ctx), input.refreshToken))),

  signOut: publicProcedure
    .input(z.object({ scope: z.enum(['local', 'global']).default('local') }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      if (ctx.auth.via === 'api-token') {
        throw new AppError(
          'FORBIDDEN',
          'An API token is not a session and cannot sign out. Revoke the token in Account settings instead.',
        );
      }
      await auth.signOut(ctx.identity, ctx.auth.claims, input.scope);
      clearSessionCookies(ctx.res, ctx.config);
      return { ok: true as const };
    }),

  requestPasswordReset: publicProcedure
    .input(z.object({ email: emailSchema }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await auth.requestPasswordReset(deps(ctx), input.email);
      return { ok: true as const };
    }),

  resetPassword: publicProcedure
    .input(z.object({ token: oneTimeTokenSchema, password: newPasswordSchema }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await auth.resetPassword(deps(ctx), input);
      clearSessionCookies(ctx.res, ctx.config);
      return { ok: true as const };
    }),
});
