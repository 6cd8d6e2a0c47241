import { PRIMARY_TOAST } from '@reshelf/contracts';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast.tsx';
import { useToast } from './use-toast.ts';

/**
 * Renders the primary toasts (spec section 9): closes by itself after 5000 ms unless a toast sets
 * its own duration, swipe right past 50 px to dismiss, and F8 focuses the notifications region.
 */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastProvider
      duration={PRIMARY_TOAST.defaultDurationMs}
      swipeThreshold={PRIMARY_TOAST.swipeThresholdPx}
      swipeDirection="right"
    >
      {toasts.map(({ id, title, description, action, ...props }) => (
        <Toast key={id} data-testid="primary-toast" {...props}>
          <div className="grid min-w-0 gap-1">
            {title ? <ToastTitle>{title}</ToastTitle> : null}
            {description ? <ToastDescription>{description}</ToastDescription> : null}
          </div>
          {action}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport hotkey={[...PRIMARY_TOAST.hotkey]} />
    </ToastProvider>
  );
}
