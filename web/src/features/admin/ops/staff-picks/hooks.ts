/** Staff picks' changes; each reloads the picks and the public shelves. */
import { thenRefresh } from '../../../../kit/mutations.ts';
import { trpc } from '../../../../lib/trpc.ts';

type Options<K extends 'add' | 'note' | 'reorder' | 'remove'> = Parameters<
  (typeof trpc.staffPicks)[K]['useMutation']
>[0];

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.staffPicks.invalidate();
    void utils.discovery.invalidate();
  };
}

export function useAddStaffPick(options: Options<'add'> = {}) {
  return trpc.staffPicks.add.useMutation(thenRefresh(options, useRefresh()));
}
export function useSetStaffPickNote(options: Options<'note'> = {}) {
  return trpc.staffPicks.note.useMutation(thenRefresh(options, useRefresh()));
}
export function useReorderStaffPicks(options: Options<'reorder'> = {}) {
  return trpc.staffPicks.reorder.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
export function useRemoveStaffPick(options: Options<'remove'> = {}) {
  return trpc.staffPicks.remove.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
