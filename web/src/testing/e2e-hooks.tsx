/**
 * Browser-test hooks, present only in the `vite build --mode e2e` bundle the browser tests serve
 * (see main.tsx and docs/decisions/0003-shell-test-hooks.md). They let a test raise toasts
 * through the same API features use, and render every button variant and size, before any
 * product page does so itself.
 */
import { BUTTON_SIZES, BUTTON_VARIANTS } from '@reshelf/contracts';
import { Plus } from 'lucide-react';
import { useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Button } from '../components/ui/button.tsx';
import { notify } from '../components/ui/notify.ts';
import { dismissToast, toast } from '../components/ui/use-toast.ts';

export interface ReshelfTestHooks {
  toast: typeof toast;
  dismissToast: typeof dismissToast;
  notify: typeof notify;
  /** Shows every button variant in every size, in a panel over the page. */
  showButtons: () => void;
  /**
   * Resolves once React has rendered every update made before the call and run its effects:
   * a test waits for that instead of for some milliseconds.
   */
  rendered: () => Promise<void>;
}

declare global {
  interface Window {
    __reshelfTest?: ReshelfTestHooks;
  }
}

let gallery: Root | null = null;

function ButtonGallery() {
  return (
    <section
      data-testid="button-gallery"
      aria-label="Buttons"
      className="fixed inset-0 z-[200] overflow-auto bg-paper p-6"
    >
      <div className="grid gap-4">
        {BUTTON_VARIANTS.map((variant) => (
          <div key={variant} className="flex flex-wrap items-center gap-3">
            {BUTTON_SIZES.map((size) => (
              <Button
                key={size}
                variant={variant}
                size={size}
                data-variant={variant}
                data-size={size}
                aria-label={size === 'icon' ? `${variant} icon` : undefined}
              >
                {size === 'icon' ? <Plus aria-hidden="true" /> : `${variant} ${size}`}
              </Button>
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}

/** Renders nothing; tells when its effect has run (see `rendered`). */
function RenderProbe({ onEffect }: { onEffect: () => void }) {
  useEffect(() => onEffect(), [onEffect]);
  return null;
}

window.__reshelfTest = {
  toast,
  dismissToast,
  notify,
  showButtons() {
    if (gallery) return;
    const host = document.createElement('div');
    document.body.append(host);
    gallery = createRoot(host);
    gallery.render(<ButtonGallery />);
  },
  rendered() {
    // A probe root of its own renders after the updates already scheduled, and React runs any
    // pending effects before it renders anything new: once the probe's effect runs, they have.
    return new Promise<void>((resolve) => {
      const probe = createRoot(document.createElement('div'));
      probe.render(
        <RenderProbe
          onEffect={() => {
            resolve();
            queueMicrotask(() => probe.unmount());
          }}
        />,
      );
    });
  },
};
