/**
 * Private stored files (decision 0060): a conversation's photos (messages, and the
 * evidence of a dispute, which is the order conversation's photos) are not public. They are
 * stored under PRIVATE_PREFIXES (embedded: on disk as before; hosted: in a private bucket) and
 * kept in the database at their plain address, `/storage/<key>`, which by itself opens nothing.
 *
 * Whoever may see them gets a short-lived signed address instead: every answer of a signed-in
 * procedure is passed through `signPrivateUrls` after its own access checks (trpc.ts), so the
 * rule "who may see the photo" stays where it is (the conversation's members, its staff, the
 * parties of a dispute), and the signature says only "this answer showed it to someone allowed".
 * The storage route (storage.route.ts) serves a private key only with a valid signature, as
 * `cache-control: private`.
 *
 * - The signature covers the photo's folder and the expiry, so both sizes of a photo share one
 *   (the thumbnail's address is the large one's with its size changed: photoThumbUrl).
 * - An address works until the end of the hour after this one (one to two hours), so the
 *   addresses of one page stay the same for an hour and a browser's cache keeps them.
 * - The web and the app send the signed address back when they send a photo; the contracts
 *   take the signature off (`withoutSignature`), so the database keeps the plain address.
 */
import type { Secrets } from '../../secrets.ts';
import { isValidKey, STORAGE_PATH } from './port.ts';

/** Key prefixes whose files are private. */
export const PRIVATE_PREFIXES = ['messages/'] as const;

export function isPrivateKey(key: string): boolean {
  return PRIVATE_PREFIXES.some((prefix) => key.startsWith(prefix));
}

const HOUR_SECONDS = 3600;
/** The longest a signed address works (and so the longest a browser may keep the file). */
export const SIGNED_URL_MAX_SECONDS = 2 * HOUR_SECONDS;

const STORAGE_PREFIX = `${STORAGE_PATH}/`;
const PRIVATE_URL_PREFIXES = PRIVATE_PREFIXES.map((prefix) => `${STORAGE_PREFIX}${prefix}`);

/** The private key a plain stored address names, or null (a public file, anything else, or signed already). */
export function privateKeyOf(url: string): string | null {
  if (!PRIVATE_URL_PREFIXES.some((prefix) => url.startsWith(prefix))) return null;
  const key = url.slice(STORAGE_PREFIX.length);
  return isValidKey(key) ? key : null;
}

/** What one signature covers: the photo's folder (every size of it) and when it ends. */
function signed(secrets: Secrets, key: string, expires: number): string {
  const folder = key.slice(0, key.lastIndexOf('/') + 1);
  return secrets.sign('storage-url', `${folder}:${expires}`);
}

/** A private stored address signed for one to two hours from `now`; any other URL as it is. */
export function signStoredUrl(secrets: Secrets, url: string, now = Date.now()): string {
  const key = privateKeyOf(url);
  if (!key) return url;
  const expires = (Math.floor(now / 1000 / HOUR_SECONDS) + 2) * HOUR_SECONDS;
  return `${url}?expires=${expires}&sig=${signed(secrets, key, expires)}`;
}

/**
 * Whether a request's query opens a private key now: the signature made for its folder and
 * expiry, not expired. Answers how many seconds it has left (the cache's max-age), or null.
 */
export function signatureSecondsLeft(
  secrets: Secrets,
  key: string,
  query: unknown,
  now = Date.now(),
): number | null {
  const { expires, sig } = (query ?? {}) as { expires?: unknown; sig?: unknown };
  if (typeof expires !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(expires)) return null;
  const left = Number(expires) - Math.floor(now / 1000);
  if (left <= 0 || left > SIGNED_URL_MAX_SECONDS) return null;
  return secrets.verify('storage-url', `${key.slice(0, key.lastIndexOf('/') + 1)}:${expires}`, sig)
    ? left
    : null;
}

/**
 * `value` with every plain private stored address in it signed (strings anywhere in arrays and
 * objects); the same object when there is none, so most answers are not copied.
 */
export function signPrivateUrls<T>(value: T, secrets: Secrets, now = Date.now()): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return privateKeyOf(item) ? signStoredUrl(secrets, item, now) : item;
    if (Array.isArray(item)) {
      let changed = false;
      const next = item.map((entry) => {
        const mapped = walk(entry);
        if (mapped !== entry) changed = true;
        return mapped;
      });
      return changed ? next : item;
    }
    if (
      item &&
      typeof item === 'object' &&
      (Object.getPrototypeOf(item) === Object.prototype || Object.getPrototypeOf(item) === null)
    ) {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [name, entry] of Object.entries(item)) {
        const mapped = walk(entry);
        if (mapped !== entry) changed = true;
        next[name] = mapped;
      }
      return changed ? next : item;
    }
    return item;
  };
  return walk(value) as T;
}
