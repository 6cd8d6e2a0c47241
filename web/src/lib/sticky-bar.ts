import { type RefObject, useEffect } from 'react';

/**
 * Keeps what gets focus clear of a bar stuck to the top or bottom of the screen (WCAG 2.4.11,
 * focus not obscured): while the bar is stuck (`position: sticky` or `fixed` at this width) its
 * height is `--sticky-top` or `--sticky-bottom` on <html>, which styles.css adds to the page's
 * scroll padding, so the browser scrolls a focused element out from under it. Measured, not
 * assumed: the bar's height changes with its content and the screen's width.
 */
export function useStickyBar(ref: RefObject<HTMLElement | null>, edge: 'top' | 'bottom'): void {
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const name = `--sticky-${edge}`;
    const measure = () => {
      const position = getComputedStyle(bar).position;
      const stuck = position === 'sticky' || position === 'fixed';
      root.style.setProperty(name, `${stuck ? Math.ceil(bar.getBoundingClientRect().height) : 0}px`);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty(name);
    };
  }, [ref, edge]);
}
