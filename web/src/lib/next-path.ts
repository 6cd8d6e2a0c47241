/**
 * Where to go after signing in. `next` comes from the address bar, so it is untrusted: the
 * one shared check (`safeNextPath` in @reshelf/contracts, which the API uses too) accepts only
 * a same-site path.
 */

import { LOGIN_PATH, SIGNED_IN_ROUTES, withNext } from '@reshelf/contracts';
import { matchPath } from 'react-router-dom';

export { LOGIN_PATH, safeNextPath, withNext } from '@reshelf/contracts';

/** The sign-in page, coming back to `next` afterwards. */
export function loginPath(next?: string | null): string {
  return withNext(LOGIN_PATH, next);
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
