import {
  apiTokenListSchema,
  apiTokenSchema,
  createApiTokenInputSchema,
  createdApiTokenSchema,
} from '@reshelf/contracts';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { createApiToken, listApiTokens, revokeApiToken } from '../../platform/identity/api-tokens.ts';
import { authedProcedure, router } from '../../trpc.ts';

/** Tokens are made by a person signed in, never by another token (no token breeds tokens). */
const sessionOnly = authedProcedure.use(({ ctx, next }) => {
  if (ctx.auth.via === 'api-token') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: 'An API token cannot create tokens. Sign in and create it in Account settings.',
    });
  }
  return next();
});

export const apiTokensRouter = router({
  /** Account settings: the caller's tokens (never the tokens themselves) and whether they may create one. */
  list: authedProcedure
    .meta({
      openapi: {
        operationId: 'apiTokens-list',
        method: 'GET',
        path: '/me/tokens',
        tags: ['Tokens'],
        summary: 'Your API tokens',
      },
    })
    .input(z.void())
    .output(apiTokenListSchema)
    .query(({ ctx }) => listApiTokens(ctx.db, ctx.user.userId)),

  /** Creates a token and answers with it: the only time it is shown. */
  create: sessionOnly
    .meta({
      openapi: {
        operationId: 'apiTokens-create',
        method: 'POST',
        path: '/me/tokens',
        tags: ['Tokens'],
        summary: 'Create an API token (signed in with a session, not a token)',
      },
    })
    .input(createApiTokenInputSchema)
    .output(createdApiTokenSchema)
    .mutation(({ ctx, input }) => createApiToken(ctx.db, ctx.secrets, ctx.user.userId, input)),

  /** Revokes one of the caller's tokens: it stops working on the next request. */
  revoke: authedProcedure
    .meta({
      openapi: {
        operationId: 'apiTokens-revoke',
        method: 'DELETE',
        path: '/me/tokens/{id}',
        tags: ['Tokens'],
        summary: 'Revoke an API token',
      },
    })
    .input(z.object({ id: z.uuid('Token must be a token id') }))
    .output(apiTokenSchema)
    .mutation(({ ctx, input }) => revokeApiToken(ctx.db, ctx.user.userId, input.id)),
});
