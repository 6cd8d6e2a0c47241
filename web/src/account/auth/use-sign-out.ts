import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { requiresSession } from '../../lib/next-path.ts';
import { markSignedOut } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';

export type SignOutScope = 'local' | 'global';

/**
 * Signs out this device ("local") or every device ("global"). The API clears the cookies.
 * On a page that needs a session the home page is loaded afresh, which also drops everything
 * the session had in memory; elsewhere the header simply shows "Sign in" again.
 */
export function useSignOut() {
  const mutation = trpc.account.auth.signOut.useMutation();
  const queryClient = useQueryClient();
  const location = useLocation();

  async function signOut(scope: SignOutScope): Promise<void> {
    await mutation.mutateAsync({ scope });
    if (requiresSession(location.pathname)) {
      window.location.assign('/');
      return;
    }
    markSignedOut(queryClient);
  }

  return {
    signOut: (scope: SignOutScope) => signOut(scope).catch(() => undefined),
    pendingScope: mutation.isPending || mutation.isSuccess ? mutation.variables?.scope : undefined,
    error: mutation.error,
  };
}
