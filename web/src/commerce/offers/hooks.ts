/**
 * Making and answering offers. Each hook owns what its step changes in the cache: the offer
 * lists are read again, and (for answers) the listings, whose availability an accepted offer
 * changes. Pages pass only what they show.
 */
import { thenRefresh } from '../../kit/index.ts';
import { trpc } from '../../lib/trpc.ts';

type Options<K extends 'make' | 'respond' | 'withdraw' | 'counter'> = Parameters<
  (typeof trpc.commerce.offers.member)[K]['useMutation']
>[0];

/** Reads the offer lists and the listings again. */
function useRefreshOffers() {
  const utils = trpc.useUtils();
  return () => {
    void utils.commerce.offers.member.list.invalidate();
    void utils.catalogue.listings.invalidate();
  };
}

/** A buyer's opening offer on a listing. */
export function useMakeOffer(options: Options<'make'> = {}) {
  const utils = trpc.useUtils();
  return trpc.commerce.offers.member.make.useMutation(
    thenRefresh(options, () => void utils.commerce.offers.member.list.invalidate()),
  );
}

/** Accept or decline. A refusal reads the lists again too: the offer may have moved on. */
export function useRespondToOffer(options: Options<'respond'> = {}) {
  return trpc.commerce.offers.member.respond.useMutation(
    thenRefresh(options, useRefreshOffers(), 'onSettled'),
  );
}

/** The buyer withdraws their offer. A refusal reads the lists again too. */
export function useWithdrawOffer(options: Options<'withdraw'> = {}) {
  return trpc.commerce.offers.member.withdraw.useMutation(
    thenRefresh(options, useRefreshOffers(), 'onSettled'),
  );
}

/** A counter-offer. */
export function useCounterOffer(options: Options<'counter'> = {}) {
  return trpc.commerce.offers.member.counter.useMutation(thenRefresh(options, useRefreshOffers()));
}
