/**
 * The basket for every component: signed in, the account's basket on the server
 * (`basket.member.*`); signed out, the visitor's basket in this browser (visitor-basket.ts),
 * merged into the account when they sign in (useMergeVisitorBasket, mounted once in the header).
 * Each mutation owns what it changes in the cache: the basket, its count and its quotes.
 */
import type { ListingDetail } from '@reshelf/contracts';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import {
  subscribeVisitorBasket,
  type VisitorBasketEntry,
  visitorBasket,
  visitorBasketSnapshot,
} from './visitor-basket.ts';

/** The visitor's basket, kept in step with localStorage (this tab and others). */
export function useVisitorBasket(): VisitorBasketEntry[] {
  return useSyncExternalStore(subscribeVisitorBasket, visitorBasketSnapshot, () => []);
}

/** Merges that failed in this page's life: the account's basket is read without waiting for them. */
let mergeFailed = false;

/**
 * Whether the account's basket can be read yet: signed in, and no visitor's basket is waiting in
 * this browser to be merged into it (reading before the merge could show the account's basket
 * without those books, and a late answer could overwrite the merged one).
 */
export function useMemberBasketReady(): boolean {
  const session = useSession();
  const visitor = useVisitorBasket();
  return session.status === 'signed-in' && (visitor.length === 0 || mergeFailed);
}

/** Reads the basket, its count and its quotes again. */
export function useRefreshBasket() {
  const utils = trpc.useUtils();
  return useCallback(() => {
    void utils.commerce.basket.member.invalidate();
  }, [utils]);
}

/** What a listing page needs to add a book to the visitor's basket. */
export function visitorEntry(listing: ListingDetail): VisitorBasketEntry {
  return {
    listingId: listing.id,
    slug: listing.slug,
    title: listing.title,
    authors: listing.authors,
    priceMinor: listing.price.itemMinor,
    parcelSize: listing.price.parcelSize,
    coverUrl: listing.coverUrl,
    isbn13: listing.isbn13,
    sellerId: listing.seller.id,
    sellerName: listing.charity?.name ?? listing.seller.displayName,
    charityName: listing.charity?.name ?? null,
    charitySlug: listing.charity?.slug ?? null,
    addedAt: new Date().toISOString(),
  };
}

/** The header's number: books in the basket that can still be bought (signed out: in this browser). */
export function useBasketCount(): number {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const visitor = useVisitorBasket();
  const ready = useMemberBasketReady();
  const count = trpc.commerce.basket.member.count.useQuery(undefined, { enabled: ready, staleTime: 30_000 });
  return signedIn ? (count.data?.count ?? 0) : visitor.length;
}

/** Whether a book is in the basket: the "Add to basket" buttons (signed in, one query for all of them). */
export function useInBasket(): { ready: boolean; has: (listingId: string) => boolean } {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const visitor = useVisitorBasket();
  const ready = useMemberBasketReady();
  const basket = trpc.commerce.basket.member.list.useQuery(undefined, { enabled: ready, staleTime: 30_000 });
  const ids = signedIn
    ? (basket.data?.groups.flatMap((group) => group.items.map((item) => item.id)) ?? [])
    : visitor.map((entry) => entry.listingId);
  const key = ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids' contents, not the array's identity.
  const has = useCallback((listingId: string) => ids.includes(listingId), [key]);
  return { ready: !signedIn || basket.isSuccess, has };
}

/** Adds a book: to the account when signed in, else to this browser. */
export function useAddToBasket() {
  const session = useSession();
  const refresh = useRefreshBasket();
  const add = trpc.commerce.basket.member.add.useMutation({
    onSuccess: () => {
      refresh();
      notify.success('Added to your basket');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const addListing = (listing: ListingDetail) => {
    if (session.status === 'signed-in') {
      add.mutate({ listingId: listing.id });
      return;
    }
    const outcome = visitorBasket.add(visitorEntry(listing));
    if (outcome === 'added') notify.success('Added to your basket');
    else if (outcome === 'full') notify.error('Your basket is full: check out or remove a book first.');
    else if (outcome === 'unstored')
      notify.error('This browser would not keep your basket: sign in to keep books in it.');
  };
  return { addListing, pending: add.isPending };
}

/** Takes a book out: from the account when signed in, else from this browser. */
export function useRemoveFromBasket() {
  const session = useSession();
  const refresh = useRefreshBasket();
  const remove = trpc.commerce.basket.member.remove.useMutation({
    onSuccess: refresh,
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const removeListing = (listingId: string) => {
    if (session.status === 'signed-in') remove.mutate({ listingId });
    else visitorBasket.remove(listingId);
  };
  return { removeListing, pending: remove.isPending };
}

/**
 * On signing in, the visitor's basket moves into the account (basket.member.merge) and is
 * cleared here; if the server refuses, it stays in the browser for the next try.
 */
export function useMergeVisitorBasket() {
  const session = useSession();
  const refresh = useRefreshBasket();
  const merge = trpc.commerce.basket.member.merge.useMutation();
  const started = useRef(false);
  const signedIn = session.status === 'signed-in';
  const { mutateAsync } = merge;
  useEffect(() => {
    if (!signedIn) {
      started.current = false;
      return;
    }
    if (started.current) return;
    const entries = visitorBasket.entries();
    if (entries.length === 0) return;
    started.current = true;
    mutateAsync({ listingIds: entries.map((entry) => entry.listingId) })
      .then(() => {
        // Clearing the browser's basket lets the account's be read (useMemberBasketReady).
        visitorBasket.clear();
        refresh();
      })
      .catch(() => {
        // Kept in the browser for the next sign-in; meanwhile the account's basket is shown.
        mergeFailed = true;
        visitorBasket.notify();
      });
  }, [signedIn, mutateAsync, refresh]);
}
