/** Book record changes: each reloads the staff book search whatever the answer. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.books.staff.invalidate();
  };
}

export function useUpdateBook(
  options: Parameters<typeof trpc.catalogue.books.staff.update.useMutation>[0] = {},
) {
  return trpc.catalogue.books.staff.update.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useMergeBooks(
  options: Parameters<typeof trpc.catalogue.books.staff.merge.useMutation>[0] = {},
) {
  return trpc.catalogue.books.staff.merge.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
