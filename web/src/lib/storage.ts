/**
 * localStorage that never throws. Storage can be missing or refuse writes (private browsing,
 * blocked cookies, a full quota); the shell then behaves as for a first visit and carries on.
 */
export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Stores a value; answers whether it was kept. */
export function writeStored(key: string, value: string): boolean {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}
