/**
 * After a deploy, a tab opened earlier may ask for page code (chunks) that no longer exists.
 * Vite then fires `vite:preloadError` on the window. We load the page afresh once, which picks
 * up the new build; if that fails too, the error reaches the router's error page (a friendly
 * message with a reload button) instead of reloading again and again.
 *
 * The guard against a loop is a sessionStorage marker holding the time of the automatic reload:
 * a second failure within RETRY_WINDOW_MS of it is left to the error page. Without session
 * storage nothing could stop a loop, so there is no automatic reload at all.
 */
export const PRELOAD_RELOAD_KEY = 'reshelf:preload-reload-at';
export const RETRY_WINDOW_MS = 60_000;

/** Whether to reload now, given when the last automatic reload happened (null: never). */
export function shouldReload(lastReloadAt: number | null, now: number): boolean {
  if (lastReloadAt === null || !Number.isFinite(lastReloadAt)) return true;
  const elapsed = now - lastReloadAt;
  return elapsed < 0 || elapsed >= RETRY_WINDOW_MS;
}

let reloading = false;

/** True once an automatic reload has started: the error page then waits instead of flashing. */
export function isRecoveryReloadPending(): boolean {
  return reloading;
}

/** Tells apart "the page's code could not be fetched" from other errors, for the error page. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|error loading dynamically/i.test(
    error.message,
  );
}

export interface PreloadRecoveryOptions {
  /**
   * The address being navigated to when the failure happened, if any: loading it directly takes
   * the visitor where they were going rather than back to the page they were leaving.
   */
  pendingUrl?: () => string | null;
}

export function installPreloadRecovery({ pendingUrl }: PreloadRecoveryOptions = {}): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloading) {
      event.preventDefault();
      return;
    }
    try {
      const stored = sessionStorage.getItem(PRELOAD_RELOAD_KEY);
      if (!shouldReload(stored === null ? null : Number(stored), Date.now())) return;
      sessionStorage.setItem(PRELOAD_RELOAD_KEY, String(Date.now()));
    } catch {
      return; // storage unavailable: cannot guard against a loop, so do not reload
    }
    reloading = true;
    event.preventDefault();
    const target = pendingUrl?.() ?? null;
    if (target) window.location.assign(target);
    else window.location.reload();
  });
}
