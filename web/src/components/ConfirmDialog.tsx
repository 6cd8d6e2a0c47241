import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from './ui/alert.tsx';
import { Button, type ButtonVariant } from './ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './ui/dialog.tsx';

/**
 * "Are you sure?" for a step that cannot be taken back (paying a seller, refunding, declining):
 * what will happen, any details the step needs (children, e.g. a reason), the server's answer
 * if it refused, and one button that does it.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  confirmVariant = 'brand',
  cancelLabel = 'Not now',
  pending,
  error,
  onConfirm,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmVariant?: ButtonVariant;
  cancelLabel?: string;
  pending: boolean;
  error?: string | null;
  onConfirm: () => void;
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <DialogContent>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onConfirm();
          }}
          className="flex flex-col gap-4"
        >
          <DialogTitle className="pr-8">{title}</DialogTitle>
          <DialogDescription asChild>
            <div className="text-sm text-ink-soft">{description}</div>
          </DialogDescription>
          {children}
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="outline" disabled={pending} onClick={() => onOpenChange(false)}>
              {cancelLabel}
            </Button>
            <Button
              type="submit"
              variant={confirmVariant}
              disabled={pending}
              aria-busy={pending || undefined}
            >
              {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
              {confirmLabel}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
