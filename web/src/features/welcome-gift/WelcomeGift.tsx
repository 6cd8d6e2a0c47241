import { WELCOME_GIFT } from '@reshelf/contracts';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { readStored, writeStored } from '../../lib/storage.ts';
import { FLAG_SET, isWelcomeGiftDue } from './welcome-gift.ts';

const { storage } = WELCOME_GIFT;

const WelcomeGiftDialog = lazy(async () => ({
  default: (await import('./WelcomeGiftDialog.tsx')).WelcomeGiftDialog,
}));

/**
 * The welcome gift popup (spec section 4): 90 s after load, once, for a first-time visitor. The
 * timer is here, with the page; the dialog's code (WelcomeGiftDialog.tsx) loads when it opens.
 * locked (tap to unlock) → unlocking (0.6 s) → revealed (20% OFF, code WELCOME20).
 * Closing it, however it is closed, sets the has-visited flag.
 */
export function WelcomeGift() {
  const [open, setOpen] = useState(false);
  /** Mounted once it first opens, and kept (its closing animation, its state). */
  const [shown, setShown] = useState(false);
  /** The popup opens by itself, with no trigger: focus goes back to wherever it was. */
  const returnFocusRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!isWelcomeGiftDue(readStored)) return;
    const timer = window.setTimeout(() => {
      if (!isWelcomeGiftDue(readStored)) return; // another tab got there first
      writeStored(storage.giftModalShown, FLAG_SET);
      returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setShown(true);
      setOpen(true);
    }, WELCOME_GIFT.delayMs);
    return () => window.clearTimeout(timer);
  }, []);

  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeGiftDialog open={open} setOpen={setOpen} returnFocusRef={returnFocusRef} />
    </Suspense>
  );
}
