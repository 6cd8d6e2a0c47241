/** Promotion code changes: each reloads the codes. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.money.promotions.invalidate();
  };
}

export function useSetPromotionActive(
  options: Parameters<typeof trpc.money.promotions.setActive.useMutation>[0] = {},
) {
  return trpc.money.promotions.setActive.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useCreatePromotion(
  options: Parameters<typeof trpc.money.promotions.create.useMutation>[0] = {},
) {
  return trpc.money.promotions.create.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdatePromotion(
  options: Parameters<typeof trpc.money.promotions.update.useMutation>[0] = {},
) {
  return trpc.money.promotions.update.useMutation(thenRefresh(options, useRefresh()));
}
