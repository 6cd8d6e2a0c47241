/**
 * The native app's side of the auth procedures (decision 0029): a tRPC link that keeps the
 * tokens `account.auth.signIn` and `account.auth.confirmEmail` hand over and forgets them when `account.auth.signOut` or
 * `account.auth.resetPassword` ends the session, each before the page hears the answer; and the call
 * that renews them (`account.auth.refresh`), made outside the app's own client so that it never waits
 * for itself.
 */
import type { AppRouter } from '@reshelf/api/router';
import { CLIENT_HEADER } from '@reshelf/contracts';
import { createTRPCClient, httpLink, type TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { apiErrorCode, apiErrorStatus } from './api-errors.ts';
import type { BearerSession, Refresher, SessionTokens } from './bearer-session.ts';

/** What the app calls itself in the client header: it gets tokens back, never cookies. */
export const APP_CLIENT = 'app';

/** Procedures whose answer carries a new session's tokens. */
const ISSUES_TOKENS = new Set(['account.auth.signIn', 'account.auth.confirmEmail']);
/** Procedures after which this device's session is over. */
const ENDS_SESSION = new Set(['account.auth.signOut', 'account.auth.resetPassword']);

function tokensIn(data: unknown): SessionTokens | undefined {
  const tokens = (data as { tokens?: SessionTokens } | null | undefined)?.tokens;
  return tokens && typeof tokens.accessToken === 'string' ? tokens : undefined;
}

export function sessionLink(session: BearerSession): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        // Answers go on in order, each once the session has been updated for it.
        let chain = Promise.resolve();
        const then = (update: () => Promise<void> | void, deliver: () => void) => {
          chain = chain
            .then(update)
            .then(deliver, (error: unknown) => observer.error(error as TRPCClientError<AppRouter>));
        };
        const subscription = next(op).subscribe({
          next(envelope) {
            then(
              async () => {
                const result = envelope.result as { type?: string; data?: unknown };
                if (result.type !== undefined && result.type !== 'data') return;
                const tokens = ISSUES_TOKENS.has(op.path) ? tokensIn(result.data) : undefined;
                if (tokens) await session.set(tokens);
                if (ENDS_SESSION.has(op.path)) await session.clear();
              },
              () => observer.next(envelope),
            );
          },
          error(error) {
            then(
              async () => {
                // Signing out of a session the BFF has already ended: it is over here too.
                if (op.path === 'account.auth.signOut' && apiErrorCode(error) === 'UNAUTHORIZED')
                  await session.clear();
              },
              () => observer.error(error),
            );
          },
          complete() {
            then(
              () => undefined,
              () => observer.complete(),
            );
          },
        });
        return () => subscription.unsubscribe();
      });
}

/**
 * Renews tokens with `account.auth.refresh` at the BFF. A refusal (4xx other than 408 and 429) means the
 * session is over; anything else (offline, a server error, too many tries) is thrown, and the
 * tokens are kept for the next try.
 */
export function refreshOverHttp(url: string, fetchImpl: typeof fetch = globalThis.fetch): Refresher {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url,
        headers: { [CLIENT_HEADER]: APP_CLIENT },
        fetch: (input, init) => fetchImpl(input, { ...init, credentials: 'omit' }),
      }),
    ],
  });
  return async (refreshToken) => {
    try {
      const result = await client.account.auth.refresh.mutate({ refreshToken });
      return tokensIn(result) ?? null;
    } catch (error) {
      const status = apiErrorStatus(error);
      if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return null;
      }
      throw error;
    }
  };
}
