/** The launch plan's changes; each reloads the plan after any answer (add: after success). */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

type Options<K extends 'add' | 'setDone' | 'reorder' | 'remove'> = Parameters<
  (typeof trpc.staff.launchPlan)[K]['useMutation']
>[0];

function useRefresh() {
  const utils = trpc.useUtils();
  return () => void utils.staff.launchPlan.invalidate();
}

export function useAddLaunchItem(options: Options<'add'> = {}) {
  return trpc.staff.launchPlan.add.useMutation(thenRefresh(options, useRefresh()));
}
export function useSetLaunchItemDone(options: Options<'setDone'> = {}) {
  return trpc.staff.launchPlan.setDone.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
export function useReorderLaunchPlan(options: Options<'reorder'> = {}) {
  return trpc.staff.launchPlan.reorder.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
export function useRemoveLaunchItem(options: Options<'remove'> = {}) {
  return trpc.staff.launchPlan.remove.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
