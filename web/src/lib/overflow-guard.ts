/**
 * Spec section 9: horizontal overflow is hidden when the page is wider than the viewport by more
 * than 1 px. Hiding it unconditionally would also hide genuine layout bugs and break sticky
 * positioning, so `overflow-x: hidden` goes on <html> and <body> only while the page overflows.
 */
import { OVERFLOW_TOLERANCE_PX } from '@reshelf/contracts';

export function exceedsViewport(
  scrollWidth: number,
  viewportWidth: number,
  tolerancePx: number = OVERFLOW_TOLERANCE_PX,
): boolean {
  return scrollWidth - viewportWidth > tolerancePx;
}

export const OVERFLOW_GUARD_ATTRIBUTE = 'data-overflow-guard';

/** Measures now, then again after every resize and DOM change (once per frame at most). */
export function installOverflowGuard(): () => void {
  const html = document.documentElement;
  const body = document.body;
  let frame = 0;

  function check() {
    frame = 0;
    // Measure the page as it is without the guard: with overflow hidden on <body>, the body clips
    // its content and the page would no longer look wider than the viewport.
    const guarded = html.hasAttribute(OVERFLOW_GUARD_ATTRIBUTE);
    if (guarded) setGuard(false);
    const overflowing = exceedsViewport(html.scrollWidth, window.innerWidth);
    if (overflowing) setGuard(true);
  }

  function setGuard(on: boolean) {
    for (const element of [html, body]) {
      if (on) element.style.setProperty('overflow-x', 'hidden');
      else element.style.removeProperty('overflow-x');
    }
    if (on) html.setAttribute(OVERFLOW_GUARD_ATTRIBUTE, '');
    else html.removeAttribute(OVERFLOW_GUARD_ATTRIBUTE);
  }

  function schedule() {
    if (frame === 0) frame = window.requestAnimationFrame(check);
  }

  const observer = new MutationObserver((records) => {
    // Our own changes to <html> and <body> are not news.
    if (records.every((record) => record.target === html || record.target === body)) {
      if (records.every((record) => record.type === 'attributes')) return;
    }
    schedule();
  });
  observer.observe(html, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['class', 'style'],
  });
  window.addEventListener('resize', schedule);
  window.addEventListener('load', schedule);
  check();

  return () => {
    observer.disconnect();
    window.removeEventListener('resize', schedule);
    window.removeEventListener('load', schedule);
    if (frame) window.cancelAnimationFrame(frame);
    setGuard(false);
  };
}
