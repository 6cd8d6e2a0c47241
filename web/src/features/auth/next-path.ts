/**
 * Where to go after signing in. `next` comes from the address bar, so it is untrusted: only a
 * same-site path is accepted (one leading slash, never `//` or `/\`, which browsers treat as
 * another host, and never an absolute URL).
 */

import { SIGNED_IN_ROUTES } from '@reshelf/contracts';
import { matchPath } from 'react-router-dom';

export const LOGIN_PATH = '/login';
const PLACEHOLDER_ORIGIN = 'https://reshelf.invalid';

export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // Control characters and backslashes have no place in our paths, and browsers rewrite them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Coming back to the sign-in page after signing in would go nowhere.
  if (url.pathname === LOGIN_PATH) return null;
  return path;
}

/** The sign-in page, coming back to `next` afterwards. */
export function loginPath(next?: string | null): string {
  const safe = safeNextPath(next);
  return safe && safe !== '/' ? `${LOGIN_PATH}?next=${encodeURIComponent(safe)}` : LOGIN_PATH;
}

/** The path, query and hash of a router location, as `next` wants it. */
export function pathOf(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

const STAFF_PREFIXES = ['/admin', '/global-admin'];

/** Pages that need a session: the spec's signed-in list, the staff area and global admin. */
export function requiresSession(pathname: string): boolean {
  if (STAFF_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) return true;
  return SIGNED_IN_ROUTES.some((path) => matchPath({ path, end: true }, pathname) !== null);
}
