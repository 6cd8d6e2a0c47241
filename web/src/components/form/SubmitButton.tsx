import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { Button, type ButtonProps } from '../ui/button.tsx';

type SubmitButtonProps = Omit<ButtonProps, 'type' | 'asChild'> & {
  pending: boolean;
  /** Shown instead of the label while the form is being sent. */
  pendingLabel?: ReactNode;
};

/** A form's submit button: disabled, with a spinner, while the form is being sent. */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  disabled,
  className,
  variant = 'brand',
  size = 'lg',
  ...props
}: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      variant={variant}
      size={size}
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      className={cn('w-full', className)}
      {...props}
    >
      {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
      {pending ? (pendingLabel ?? children) : children}
    </Button>
  );
}
