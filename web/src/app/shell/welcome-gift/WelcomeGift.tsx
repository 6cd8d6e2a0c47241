import { WELCOME_GIFT } from '@reshelf/contracts';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { readStored, writeStored } from '../../../lib/storage.ts';
import type { WelcomeGiftDialog } from './WelcomeGiftDialog.tsx';
import { FLAG_SET, isWelcomeGiftDue } from './welcome-gift.ts';

const { storage } = WELCOME_GIFT;

/**
 * The welcome gift popup (spec section 4): 90 s after load, once, for a first-time visitor.
 * Closing it, however it is closed, sets the has-visited flag. The popup's code (Radix's dialog
 * and the gift itself, WelcomeGiftDialog.tsx) is fetched when it is due, not with the page
 * (docs/decisions/0066-the-first-load-holds-what-the-first-screen-runs.md); if it cannot be
 * fetched (offline, a newer deploy), there is no gift this time and the flags stay unset.
 */
export function WelcomeGift() {
  const [Popup, setPopup] = useState<ComponentType<Parameters<typeof WelcomeGiftDialog>[0]> | null>(null);
  const [open, setOpen] = useState(false);
  const returnFocusRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!isWelcomeGiftDue(readStored)) return;
    let cancelled = false;
    const timer = window.setTimeout(() => {
      if (!isWelcomeGiftDue(readStored)) return; // another tab got there first
      import('./WelcomeGiftDialog.tsx').then(
        (loaded) => {
          if (cancelled || !isWelcomeGiftDue(readStored)) return;
          writeStored(storage.giftModalShown, FLAG_SET);
          returnFocusRef.current =
            document.activeElement instanceof HTMLElement ? document.activeElement : null;
          setPopup(() => loaded.WelcomeGiftDialog);
          setOpen(true);
        },
        () => undefined,
      );
    }, WELCOME_GIFT.delayMs);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, []);

  if (!Popup) return null;
  return (
    <Popup
      open={open}
      returnFocusRef={returnFocusRef}
      onClose={() => {
        writeStored(storage.hasVisited, FLAG_SET);
        setOpen(false);
      }}
    />
  );
}
