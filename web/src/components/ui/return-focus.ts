import type { Content } from '@radix-ui/react-dialog';
import type { ComponentProps } from 'react';
import { useRef } from 'react';

type FocusHandlers = Pick<ComponentProps<typeof Content>, 'onOpenAutoFocus' | 'onCloseAutoFocus'>;

/**
 * Focus goes back to whatever opened a dialog or sheet when it closes (WCAG 2.4.3). Radix returns
 * it to a `DialogTrigger`, but most dialogs here are opened from state by an ordinary button, and
 * then focus fell to the page's start. The element with focus as the dialog opens is remembered
 * and focused again on close, if it is still on the page (a menu item that opened it is not; the
 * default applies). A page's own handlers run first and may prevent this.
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
      if (event.defaultPrevented || !element || !element.isConnected || element === document.body) return;
      event.preventDefault();
      element.focus();
    },
  };
}
