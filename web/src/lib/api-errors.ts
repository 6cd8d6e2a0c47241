import { isTRPCClientError } from '@trpc/client';

/**
 * Reading errors from API calls. The server writes its messages for people (brief section 7),
 * so a tRPC error's message is shown as it is; anything without a tRPC code never reached the
 * API (offline, DNS, a proxy) and gets a message about the connection instead.
 */

export const CONNECTION_PROBLEM = "We couldn't reach Reshelf. Check your connection and try again.";

interface ErrorData {
  code?: string;
  httpStatus?: number;
  zodError?: { formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> } | null;
}

function dataOf(error: unknown): ErrorData | undefined {
  if (!isTRPCClientError(error)) return undefined;
  const data: unknown = error.data;
  return data && typeof data === 'object' ? (data as ErrorData) : undefined;
}

/** The tRPC error code (UNAUTHORIZED, FORBIDDEN, NOT_FOUND, TOO_MANY_REQUESTS, ...), if the API answered. */
export function apiErrorCode(error: unknown): string | undefined {
  return dataOf(error)?.code;
}

export function isUnauthorized(error: unknown): boolean {
  return apiErrorCode(error) === 'UNAUTHORIZED';
}

/** The HTTP status the API answered with, if it answered. */
export function apiErrorStatus(error: unknown): number | undefined {
  return dataOf(error)?.httpStatus;
}

/** A message a person can act on: the server's own, or one about the connection. */
export function apiErrorMessage(error: unknown): string {
  if (isTRPCClientError(error) && dataOf(error)?.code) return error.message;
  return CONNECTION_PROBLEM;
}

/** Per-field messages from the server's input validation, when there are any. */
export function apiFieldErrors(error: unknown): Record<string, string> {
  const fieldErrors = dataOf(error)?.zodError?.fieldErrors ?? {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const first = messages?.[0];
    if (first) result[field] = first;
  }
  return result;
}

/**
 * Retry a failed query once (spec section 9), but only when trying again could help: a
 * connection problem or a server error. An answer such as UNAUTHORIZED, FORBIDDEN or NOT_FOUND
 * will not change on a second try.
 */
export function shouldRetry(failureCount: number, error: unknown, retries: number): boolean {
  const status = apiErrorStatus(error);
  if (status !== undefined && status >= 400 && status < 500) return false;
  return failureCount < retries;
}
