/**
 * The staff sidebar's open state (spec sections 2 and 9): kept in the `sidebar_state` cookie
 * for 7 days, toggled with Ctrl/Cmd+B. Pure helpers, so the rules are tested without a DOM.
 */
import { ADMIN_SIDEBAR } from '@reshelf/contracts';

/** The remembered state in a `document.cookie` string, or null when there is none. */
export function readSidebarOpen(cookies: string): boolean | null {
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name !== ADMIN_SIDEBAR.cookieName) continue;
    const value = rest.join('=');
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return null;
}

/** The cookie that remembers the state for 7 days, for the whole site. */
export function sidebarCookie(open: boolean): string {
  return `${ADMIN_SIDEBAR.cookieName}=${open}; path=/; max-age=${ADMIN_SIDEBAR.cookieMaxAgeSeconds}; samesite=lax`;
}

/** Ctrl+B (Cmd+B on a Mac) toggles the sidebar; Ctrl/Cmd+K opens the command palette. */
export function isShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
  key: string,
): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === key;
}
