/**
 * The address someone has just signed up with, so /email-confirmation can show it and resend
 * the link after a reload. Kept for this tab only (sessionStorage), never in the address bar.
 */
const KEY = 'reshelf:pending-confirmation-email';

export function rememberPendingEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Storage unavailable (private mode): the page falls back to asking for the address.
  }
}

export function pendingEmail(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}
