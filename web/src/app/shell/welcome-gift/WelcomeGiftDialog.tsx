import { WELCOME_GIFT } from '@reshelf/contracts';
import { Gift, LockKeyhole, Sparkles } from 'lucide-react';
import { type CSSProperties, type RefObject, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog.tsx';
import { writeStored } from '../../../lib/storage.ts';
import { GIFT_HEADLINE, type GiftPhase } from './welcome-gift.ts';

const { storage } = WELCOME_GIFT;

/**
 * The welcome gift popup itself (spec section 4), loaded only when it is due (WelcomeGift.tsx):
 * locked (tap to unlock) → unlocking (0.6 s) → revealed (20% OFF, code WELCOME20).
 */
export function WelcomeGiftDialog({
  open,
  onClose,
  returnFocusRef,
}: {
  open: boolean;
  /** However it is closed. */
  onClose: () => void;
  /** The popup opens by itself, with no trigger: focus goes back to wherever it was. */
  returnFocusRef: RefObject<HTMLElement | null>;
}) {
  const [phase, setPhase] = useState<GiftPhase>('locked');
  const continueRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (phase !== 'unlocking') return;
    const timer = window.setTimeout(() => {
      // Informational only, as the spec stores it: the server decides and applies the first-order
      // discount at checkout from its own records, and never trusts this browser-side value.
      writeStored(storage.firstTimeDiscount, String(WELCOME_GIFT.discountPercent));
      setPhase('revealed');
    }, WELCOME_GIFT.unlockMs);
    return () => window.clearTimeout(timer);
  }, [phase]);

  useEffect(() => {
    if (phase === 'revealed') continueRef.current?.focus();
  }, [phase]);

  function onOpenChange(next: boolean) {
    if (!next) onClose();
  }

  const unlockLabel = phase === 'locked' ? 'Tap to unlock' : 'Unlocking…';

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="welcome-gift"
        data-phase={phase}
        closeLabel="Close the welcome gift"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const target = returnFocusRef.current;
          if (target?.isConnected) target.focus({ preventScroll: true });
        }}
        className="max-w-sm overflow-hidden text-center"
      >
        <DialogTitle className="pr-6 pl-6">A welcome gift for you</DialogTitle>
        <DialogDescription className="mt-2 text-base">
          {phase === 'revealed'
            ? 'Here is a thank-you for visiting Reshelf.'
            : 'Something to start your shelf with.'}
        </DialogDescription>

        {phase === 'revealed' ? (
          <div className="mt-6 flex flex-col items-center motion-safe:animate-gift-reveal">
            <Sparkles aria-hidden="true" className="size-6 text-accent-hover" />
            <p data-testid="welcome-gift-headline" className="mt-1 font-serif text-6xl font-bold text-brand">
              {GIFT_HEADLINE}
            </p>
            <p className="mt-1 font-semibold text-ink-soft">your first purchase</p>
            <p className="mt-5 text-sm text-ink-muted">Your code</p>
            <p
              data-testid="welcome-gift-code"
              className="mt-1 rounded-lg border-2 border-dashed border-brand/40 bg-brand-soft px-5 py-2 font-mono text-xl font-bold tracking-[0.2em] text-brand"
            >
              {WELCOME_GIFT.code}
            </p>
            <p className="mt-4 text-sm leading-relaxed text-ink-soft">
              Automatically applied to your first purchase. There is nothing to type at checkout.
            </p>
            <Button
              ref={continueRef}
              variant="brand"
              size="lg"
              className="mt-6 w-full"
              onClick={() => onOpenChange(false)}
            >
              Start browsing
            </Button>
          </div>
        ) : (
          <div className="mt-6 flex flex-col items-center">
            <button
              type="button"
              data-testid="welcome-gift-unlock"
              aria-disabled={phase === 'unlocking'}
              aria-describedby="welcome-gift-hint"
              onClick={() => phase === 'locked' && setPhase('unlocking')}
              className="group relative grid size-40 cursor-pointer place-items-center rounded-3xl bg-brand text-brand-foreground shadow-card-hover transition-transform hover:scale-[1.03] aria-disabled:cursor-default motion-reduce:transition-none"
            >
              <span className="sr-only">Unlock your welcome gift</span>
              <span
                aria-hidden="true"
                className="absolute inset-y-0 left-1/2 w-5 -translate-x-1/2 bg-accent/90"
              />
              <span
                aria-hidden="true"
                className="absolute inset-x-0 top-1/2 h-5 -translate-y-1/2 bg-accent/90"
              />
              <span
                data-testid="welcome-gift-box"
                aria-hidden="true"
                style={{ '--gift-unlock-duration': `${WELCOME_GIFT.unlockMs}ms` } as CSSProperties}
                className={
                  phase === 'unlocking'
                    ? 'relative grid size-20 place-items-center rounded-2xl bg-brand motion-safe:animate-[gift-unlock_var(--gift-unlock-duration)_ease-in-out_both]'
                    : 'relative grid size-20 place-items-center rounded-2xl bg-brand'
                }
              >
                <Gift className="size-12" />
              </span>
              {phase === 'locked' ? (
                <span
                  aria-hidden="true"
                  className="absolute -top-2 -right-2 grid size-9 place-items-center rounded-full border-2 border-paper bg-ink text-paper"
                >
                  <LockKeyhole className="size-4" />
                </span>
              ) : null}
            </button>
            <p id="welcome-gift-hint" className="mt-5 font-semibold text-ink-soft">
              {unlockLabel}
            </p>
          </div>
        )}

        <p aria-live="polite" className="sr-only">
          {phase === 'unlocking' ? 'Unlocking your gift…' : null}
          {phase === 'revealed'
            ? `${GIFT_HEADLINE} your first purchase with code ${WELCOME_GIFT.code}, applied automatically.`
            : null}
        </p>
      </DialogContent>
    </Dialog>
  );
}
