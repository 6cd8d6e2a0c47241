/**
 * The domain error: services throw it with a code; one table maps each code to the
 * tRPC code (and so the HTTP status) the caller sees. Messages are written for people.
 */
import { TRPCError } from '@trpc/server';

export const APP_ERROR_CODES = {
  BAD_INPUT: 'BAD_REQUEST',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  GONE: 'NOT_FOUND',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  BAD_GATEWAY: 'BAD_GATEWAY',
} as const satisfies Record<string, TRPCError['code']>;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toTRPC(): TRPCError {
    return new TRPCError({ code: APP_ERROR_CODES[this.code], message: this.message, cause: this });
  }
}
