/**
 * "Your account is closed", shown on the page the person lands on after closing their account
 * (CloseAccountSection loads the home page afresh, which drops everything the session had in
 * memory, as signing out of a signed-in page does). The toast crosses the load in this tab's
 * sessionStorage, read once.
 */
import { useEffect } from 'react';
import { notify } from '../../components/ui/notify.ts';

const KEY = 'reshelf:account-closed';

/** Called just before the page is left: the next page of this tab says the account is closed. */
export function rememberAccountClosed(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (private mode): the person still lands signed out on the home page.
  }
}

/** Rendered once beside the toasters: shows the notice left by rememberAccountClosed. */
export function AccountClosedNotice(): null {
  useEffect(() => {
    let closed = false;
    try {
      closed = sessionStorage.getItem(KEY) === '1';
      sessionStorage.removeItem(KEY);
    } catch {
      closed = false;
    }
    if (closed) notify.success('Your account is closed');
  }, []);
  return null;
}
