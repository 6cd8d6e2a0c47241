/** Promotion code changes: each reloads the codes. */
import { thenRefresh } from '../../kit/mutations.ts';
import { trpc } from '../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.promotions.invalidate();
  };
}

export function useSetPromotionActive(
  options: Parameters<typeof trpc.commerce.promotions.setActive.useMutation>[0] = {},
) {
  return trpc.commerce.promotions.setActive.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}

export function useCreatePromotion(
  options: Parameters<typeof trpc.commerce.promotions.create.useMutation>[0] = {},
) {
  return trpc.commerce.promotions.create.useMutation(thenRefresh(options, useRefresh()));
}

export function useUpdatePromotion(
  options: Parameters<typeof trpc.commerce.promotions.update.useMutation>[0] = {},
) {
  return trpc.commerce.promotions.update.useMutation(thenRefresh(options, useRefresh()));
}
