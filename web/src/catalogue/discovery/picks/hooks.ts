/** Staff picks' changes; each reloads the picks and the public shelves. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

type Options<K extends 'add' | 'note' | 'reorder' | 'remove'> = Parameters<
  (typeof trpc.catalogue.discovery.picks)[K]['useMutation']
>[0];

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.catalogue.discovery.picks.invalidate();
    void utils.catalogue.discovery.public.invalidate();
  };
}

export function useAddStaffPick(options: Options<'add'> = {}) {
  return trpc.catalogue.discovery.picks.add.useMutation(thenRefresh(options, useRefresh()));
}
export function useSetStaffPickNote(options: Options<'note'> = {}) {
  return trpc.catalogue.discovery.picks.note.useMutation(thenRefresh(options, useRefresh()));
}
export function useReorderStaffPicks(options: Options<'reorder'> = {}) {
  return trpc.catalogue.discovery.picks.reorder.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
export function useRemoveStaffPick(options: Options<'remove'> = {}) {
  return trpc.catalogue.discovery.picks.remove.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
