import type { Content } from '@radix-ui/react-dialog';
import type { ComponentProps } from 'react';
import { useRef } from 'react';

type FocusHandlers = Pick<ComponentProps<typeof Content>, 'onOpenAutoFocus' | 'onCloseAutoFocus'>;

/**
 * Focus goes back to whatever opened a dialog or sheet when it closes (WCAG 2.4.3). Radix returns
 * it to a `DialogTrigger`, but most dialogs here are opened from state by an ordinary button, and
 * then focus fell to the page's start. The element with focus as the dialog opens is remembered
 * and focused again on close; if it has left the page meanwhile, focus goes to the main content.
 * A page's own handlers run first and may prevent this.
 *
 * What the dialog did may then take the opener off the page while it has focus (deciding a
 * dispute removes its row, and the row's Review button, from the open queue): focus would fall to
 * the document's start, so it goes to the main content instead (`#main`, where the skip link goes).
 */
export function useReturnFocus({ onOpenAutoFocus, onCloseAutoFocus }: FocusHandlers): FocusHandlers {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event) => {
      // Still the opener: the dialog has mounted but not yet moved focus.
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event) => {
      onCloseAutoFocus?.(event);
      const element = opener.current;
      opener.current = null;
      if (event.defaultPrevented || !element || element === document.body) return;
      event.preventDefault();
      if (!element.isConnected) {
        document.getElementById('main')?.focus({ preventScroll: true });
        return;
      }
      element.focus();
      keepFocusOnPage(element);
    },
  };
}

/**
 * While `element` has focus: if it leaves the page, focus goes to the main content rather than
 * to nowhere. Stops watching once focus moves on by itself.
 */
function keepFocusOnPage(element: HTMLElement): void {
  const observer = new MutationObserver(() => {
    if (element.isConnected) return;
    stop();
    if (document.activeElement === null || document.activeElement === document.body)
      document.getElementById('main')?.focus({ preventScroll: true });
  });
  // Focus moved on while the element is still there (a Tab, a click): nothing to watch for.
  const onBlur = () =>
    queueMicrotask(() => {
      if (element.isConnected) stop();
    });
  function stop() {
    observer.disconnect();
    element.removeEventListener('blur', onBlur);
  }
  observer.observe(document.body, { childList: true, subtree: true });
  element.addEventListener('blur', onBlur);
}
