/** Personal API tokens: creating and revoking one reads the token list again. */
import { trpc } from '../../lib/trpc.ts';

export function useApiTokens() {
  return trpc.account.apiTokens.list.useQuery();
}

/** Creates a token; the list is read again once it exists. */
export function useCreateApiToken() {
  const utils = trpc.useUtils();
  return trpc.account.apiTokens.create.useMutation({
    onSuccess: () => utils.account.apiTokens.list.invalidate(),
  });
}

/** Revokes a token; the list is read again once it is revoked. */
export function useRevokeApiToken() {
  const utils = trpc.useUtils();
  return trpc.account.apiTokens.revoke.useMutation({
    onSuccess: () => utils.account.apiTokens.list.invalidate(),
  });
}
