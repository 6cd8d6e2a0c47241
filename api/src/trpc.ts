/**
 * The tRPC instance, its context and the procedure builders. Every procedure is built
 * from exactly one access level, recorded in its meta so a test can walk them all:
 *   publicProcedure  anyone
 *   (later issues add signed-in, staff and global-admin tier builders here)
 */
import { initTRPC, TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppConfig } from './config.ts';
import type { Database } from './db/index.ts';
import { AppError } from './errors.ts';
import type { Secrets } from './secrets.ts';

export type AccessLevel = 'public' | 'authed' | 'staff' | `tier:${number}`;

export interface Meta {
  access?: AccessLevel;
}

export interface Context {
  db: Database;
  config: AppConfig;
  secrets: Secrets;
  req: FastifyRequest;
  res: FastifyReply;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof z.ZodError ? z.flattenError(error.cause) : null;
      return {
        ...shape,
        message: zodError ? summariseZodError(error.cause as z.ZodError) : shape.message,
        data: {
          ...shape.data,
          stack: undefined,
          zodError,
        },
      };
    },
  });

function summariseZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Turns domain errors into tRPC errors and hides anything unexpected. */
const errorBoundary = t.middleware(async ({ next, ctx }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) throw cause.toTRPC();
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.req.log.error({ err: cause ?? result.error }, 'procedure failed');
      throw new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        message: 'Something went wrong on our side. Please try again in a moment.',
      });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

const baseProcedure = t.procedure.use(errorBoundary);

export const publicProcedure = baseProcedure.meta({ access: 'public' });
