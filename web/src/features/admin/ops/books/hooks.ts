/** Book record changes: each reloads the staff book search whatever the answer. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staffBooks.invalidate();
  };
}

export function useUpdateBook(options: Parameters<typeof trpc.staffBooks.update.useMutation>[0] = {}) {
  return trpc.staffBooks.update.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useMergeBooks(options: Parameters<typeof trpc.staffBooks.merge.useMutation>[0] = {}) {
  return trpc.staffBooks.merge.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
