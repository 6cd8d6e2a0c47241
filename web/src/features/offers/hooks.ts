/**
 * Making and answering offers. Each hook owns what its step changes in the cache: the offer
 * lists are read again, and (for answers) the listings, whose availability an accepted offer
 * changes. Pages pass only what they show.
 */
import { trpc } from '../../lib/trpc.ts';

type Callbacks<Data = unknown> = { onSuccess?: (data: Data) => void; onError?: (error: unknown) => void };

/** Reads the offer lists and the listings again. */
function useRefreshOffers() {
  const utils = trpc.useUtils();
  return () => {
    void utils.offers.list.invalidate();
    void utils.listings.invalidate();
  };
}

/** A buyer's opening offer on a listing. */
export function useMakeOffer({ onSuccess, onError }: Callbacks = {}) {
  const utils = trpc.useUtils();
  return trpc.offers.make.useMutation({
    onSuccess: (data) => {
      void utils.offers.list.invalidate();
      onSuccess?.(data);
    },
    onError,
  });
}

type Respond = ReturnType<typeof trpc.offers.respond.useMutation>;
type RespondResult = NonNullable<Respond['data']>;

/** Accept or decline. A refusal reads the lists again too: the offer may have moved on. */
export function useRespondToOffer({ onSuccess, onError }: Callbacks<RespondResult> = {}) {
  const refresh = useRefreshOffers();
  return trpc.offers.respond.useMutation({
    onSuccess: (result) => {
      refresh();
      onSuccess?.(result);
    },
    onError: (error) => {
      refresh();
      onError?.(error);
    },
  });
}

/** The buyer withdraws their offer. A refusal reads the lists again too. */
export function useWithdrawOffer({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOffers();
  return trpc.offers.withdraw.useMutation({
    onSuccess: (data) => {
      refresh();
      onSuccess?.(data);
    },
    onError: (error) => {
      refresh();
      onError?.(error);
    },
  });
}

/** A counter-offer. */
export function useCounterOffer({ onSuccess, onError }: Callbacks = {}) {
  const refresh = useRefreshOffers();
  return trpc.offers.counter.useMutation({
    onSuccess: (data) => {
      refresh();
      onSuccess?.(data);
    },
    onError,
  });
}
