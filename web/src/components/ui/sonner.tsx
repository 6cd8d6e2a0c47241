import { SECONDARY_TOAST } from '@reshelf/contracts';
import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { useIsMobile } from '../../lib/use-media-query.ts';

/** Offsets from the screen's edges, kept clear of the native shell's status bar and home indicator. */
function edges(offsetPx: number) {
  return {
    top: `calc(${offsetPx}px + var(--shell-top, 0px))`,
    right: `${offsetPx}px`,
    bottom: `calc(${offsetPx}px + var(--shell-bottom, 0px))`,
    left: `${offsetPx}px`,
  };
}

/**
 * The secondary toasts (spec section 9), rendered by Sonner: top on small screens, bottom right
 * on larger ones; 3 visible, 4000 ms, 356 px wide, 32 px from the edges (16 px below 768 px),
 * 14 px apart. Sonner's own behaviour covers the rest (notify.ts).
 *
 * Sonner applies `mobileOffset` only below its own 600 px breakpoint, so `offset` switches to the
 * mobile value at ours (768 px) too.
 */
export function SonnerToaster() {
  const isMobile = useIsMobile();
  return (
    <Toaster
      position={isMobile ? 'top-center' : 'bottom-right'}
      visibleToasts={SECONDARY_TOAST.visible}
      duration={SECONDARY_TOAST.durationMs}
      gap={SECONDARY_TOAST.gapPx}
      offset={edges(isMobile ? SECONDARY_TOAST.mobileOffsetPx : SECONDARY_TOAST.offsetPx)}
      mobileOffset={edges(SECONDARY_TOAST.mobileOffsetPx)}
      style={
        {
          '--width': `${SECONDARY_TOAST.widthPx}px`,
          '--normal-bg': 'var(--color-paper)',
          '--normal-border': 'var(--color-line)',
          '--normal-text': 'var(--color-ink)',
          '--border-radius': '0.75rem',
          fontFamily: 'var(--font-sans)',
        } as CSSProperties
      }
      closeButton
    />
  );
}
