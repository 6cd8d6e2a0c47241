/**
 * After a deploy, a tab opened earlier may ask for page chunks that no longer exist. Vite then
 * fires `vite:preloadError`; reload once to pick up the new build. If the reload itself fails
 * to help (within a minute), let the error reach the router's error page instead of looping.
 */
const STORAGE_KEY = 'reshelf:preload-reload-at';
const RETRY_WINDOW_MS = 60_000;

export function installPreloadRecovery(): void {
  window.addEventListener('vite:preloadError', (event) => {
    let lastReload = 0;
    try {
      lastReload = Number(sessionStorage.getItem(STORAGE_KEY) ?? 0);
      if (Date.now() - lastReload < RETRY_WINDOW_MS) return;
      sessionStorage.setItem(STORAGE_KEY, String(Date.now()));
    } catch {
      return; // storage unavailable: cannot guard against a loop, so do not reload
    }
    event.preventDefault();
    window.location.reload();
  });
}
