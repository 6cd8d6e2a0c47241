/** Staff offer actions: cancelling reloads the offer threads whatever the answer. */
import { thenRefresh } from '../../../kit/mutations.ts';
import { trpc } from '../../../lib/trpc.ts';

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.offers.staff.invalidate();
  };
}

export function useCancelOffer(
  options: Parameters<typeof trpc.commerce.offers.staff.cancel.useMutation>[0] = {},
) {
  return trpc.commerce.offers.staff.cancel.useMutation(thenRefresh(options, useRefresh(), 'onSettled'));
}
