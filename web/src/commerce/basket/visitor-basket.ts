/**
 * A visitor's basket (signed out): kept in this browser's localStorage until they sign in, when
 * `commerce.basket.member.merge` moves it into their account and it is cleared here. Each entry keeps
 * what the basket page shows before the server prices it (title, seller, price when added); the
 * server's answer is the one that counts once they sign in.
 *
 * The store is a small pure core over any Storage-like object (tested in basket.test.ts) plus
 * a subscription so every "Add to basket" button and the header's count agree at once, also
 * across tabs (the storage event).
 */
import { PARCEL_SIZES, type ParcelSize } from '@reshelf/contracts';

export const VISITOR_BASKET_KEY = 'reshelf:basket';
/** As many books as a signed-in basket may hold (the server refuses more). */
export const VISITOR_BASKET_LIMIT = 50;

export interface VisitorBasketEntry {
  listingId: string;
  slug: string;
  title: string;
  authors: string[];
  priceMinor: number;
  parcelSize: ParcelSize;
  coverUrl: string | null;
  isbn13: string | null;
  sellerId: string;
  sellerName: string;
  charityName: string | null;
  /** The charity's shop, whose bundle tiers apply to its books (absent in baskets kept before it). */
  charitySlug: string | null;
  addedAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/**
 * One kept entry as this browser stored it, or null when it is not one (edited by hand, an older
 * shape). Checked by hand rather than with a zod schema: the header's basket count reads this on
 * every page, and zod would then be in every page's first load (decision 0066).
 */
export function readVisitorBasketEntry(candidate: unknown): VisitorBasketEntry | null {
  if (typeof candidate !== 'object' || candidate === null) return null;
  const entry = candidate as Record<string, unknown>;
  const charitySlug = entry.charitySlug === undefined ? null : entry.charitySlug;
  const valid =
    isText(entry.listingId) &&
    UUID.test(entry.listingId) &&
    isText(entry.slug) &&
    entry.slug.length > 0 &&
    isText(entry.title) &&
    Array.isArray(entry.authors) &&
    entry.authors.every(isText) &&
    Number.isSafeInteger(entry.priceMinor) &&
    (entry.priceMinor as number) >= 0 &&
    (PARCEL_SIZES as readonly unknown[]).includes(entry.parcelSize) &&
    isTextOrNull(entry.coverUrl) &&
    isTextOrNull(entry.isbn13) &&
    isText(entry.sellerId) &&
    UUID.test(entry.sellerId) &&
    isText(entry.sellerName) &&
    isTextOrNull(entry.charityName) &&
    isTextOrNull(charitySlug) &&
    isText(entry.addedAt);
  if (!valid) return null;
  return {
    listingId: entry.listingId as string,
    slug: entry.slug as string,
    title: entry.title as string,
    authors: [...(entry.authors as string[])],
    priceMinor: entry.priceMinor as number,
    parcelSize: entry.parcelSize as ParcelSize,
    coverUrl: entry.coverUrl as string | null,
    isbn13: entry.isbn13 as string | null,
    sellerId: entry.sellerId as string,
    sellerName: entry.sellerName as string,
    charityName: entry.charityName as string | null,
    charitySlug: charitySlug as string | null,
    addedAt: entry.addedAt as string,
  };
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The entries kept in `storage`: anything unreadable or malformed is dropped, never thrown. */
export function readVisitorBasket(storage: StorageLike | null): VisitorBasketEntry[] {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(VISITOR_BASKET_KEY) ?? null;
  } catch {
    return [];
  }
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const seen = new Set<string>();
  const entries: VisitorBasketEntry[] = [];
  for (const candidate of parsed) {
    const entry = readVisitorBasketEntry(candidate);
    if (!entry || seen.has(entry.listingId)) continue;
    seen.add(entry.listingId);
    entries.push(entry);
  }
  return entries.slice(0, VISITOR_BASKET_LIMIT);
}

function write(storage: StorageLike | null, entries: VisitorBasketEntry[]): boolean {
  try {
    if (entries.length === 0) storage?.removeItem(VISITOR_BASKET_KEY);
    else storage?.setItem(VISITOR_BASKET_KEY, JSON.stringify(entries));
    return storage !== null;
  } catch {
    return false;
  }
}

export type AddOutcome = 'added' | 'already' | 'full' | 'unstored';

/** Adds a book (once): 'already' when it is in, 'full' at the limit, 'unstored' if storage refused. */
export function addToVisitorBasket(storage: StorageLike | null, entry: VisitorBasketEntry): AddOutcome {
  const entries = readVisitorBasket(storage);
  if (entries.some((existing) => existing.listingId === entry.listingId)) return 'already';
  if (entries.length >= VISITOR_BASKET_LIMIT) return 'full';
  // Only the entry's own fields are kept, as they will be read back.
  const kept = readVisitorBasketEntry(entry);
  if (!kept) throw new Error(`Not a basket entry: ${JSON.stringify(entry)}`);
  return write(storage, [...entries, kept]) ? 'added' : 'unstored';
}

export function removeFromVisitorBasket(storage: StorageLike | null, listingId: string): void {
  const entries = readVisitorBasket(storage);
  const kept = entries.filter((entry) => entry.listingId !== listingId);
  if (kept.length !== entries.length) write(storage, kept);
}

export function clearVisitorBasket(storage: StorageLike | null): void {
  write(storage, []);
}

// The browser's store, shared by every component ---------------------------------------------

function browserStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let snapshot: { raw: string | null; entries: VisitorBasketEntry[] } = { raw: null, entries: [] };

function notify() {
  for (const listener of listeners) listener();
}

/** For useSyncExternalStore: the same array until the stored value changes. */
export function visitorBasketSnapshot(): VisitorBasketEntry[] {
  const storage = browserStorage();
  let raw: string | null = null;
  try {
    raw = storage?.getItem(VISITOR_BASKET_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== snapshot.raw) snapshot = { raw, entries: readVisitorBasket(storage) };
  return snapshot.entries;
}

export function subscribeVisitorBasket(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === VISITOR_BASKET_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const visitorBasket = {
  add(entry: VisitorBasketEntry): AddOutcome {
    const outcome = addToVisitorBasket(browserStorage(), entry);
    notify();
    return outcome;
  },
  remove(listingId: string): void {
    removeFromVisitorBasket(browserStorage(), listingId);
    notify();
  },
  clear(): void {
    clearVisitorBasket(browserStorage());
    notify();
  },
  /** Tells every reader to look again (something besides the entries changed). */
  notify(): void {
    snapshot = { raw: snapshot.raw, entries: [...snapshot.entries] };
    notify();
  },
  entries(): VisitorBasketEntry[] {
    return readVisitorBasket(browserStorage());
  },
};
