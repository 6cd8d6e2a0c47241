/**
 * The visitor's cookie choice (spec sections 3 and 4): `accepted` or `declined` under the
 * `cookie-consent` localStorage key. It gates everything non-essential (analytics).
 */
import { COOKIE_BANNER } from '@reshelf/contracts';
import { analytics } from '../../../lib/analytics.ts';
import { readStored, writeStored } from '../../../lib/storage.ts';

export type CookieConsent = (typeof COOKIE_BANNER.values)[keyof typeof COOKIE_BANNER.values];

const CONSENT_VALUES: readonly string[] = Object.values(COOKIE_BANNER.values);

/** A stored value counts only when it is one of the two choices; anything else means "not asked". */
export function parseConsent(value: string | null): CookieConsent | null {
  return value !== null && CONSENT_VALUES.includes(value) ? (value as CookieConsent) : null;
}

export function readConsent(): CookieConsent | null {
  return parseConsent(readStored(COOKIE_BANNER.storageKey));
}

type Listener = (consent: CookieConsent | null) => void;
const listeners = new Set<Listener>();

function publish(consent: CookieConsent | null): void {
  analytics.setConsent(consent);
  for (const listener of listeners) listener(consent);
}

/** Records the visitor's choice and applies it at once. */
export function saveConsent(consent: CookieConsent): void {
  writeStored(COOKIE_BANNER.storageKey, consent);
  publish(consent);
}

/** Called on every change, including a choice made in another tab. */
export function subscribeConsent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies the stored choice at start and follows choices made in other tabs. */
export function initConsent(): void {
  analytics.setConsent(readConsent());
  window.addEventListener('storage', (event) => {
    if (event.key === COOKIE_BANNER.storageKey || event.key === null) publish(readConsent());
  });
}
