/**
 * Styled Radix Toast parts for the primary toasts (shadcn/ui's toast, on Reshelf's tokens).
 * Top of the screen on small screens, bottom right from the 768 px breakpoint.
 */
import * as ToastPrimitive from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

export const ToastProvider = ToastPrimitive.Provider;

export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      className={cn(
        'fixed top-[var(--shell-top,0px)] z-[100] flex max-h-dvh w-full flex-col-reverse gap-2 p-4 outline-none md:top-auto md:right-0 md:bottom-[var(--shell-bottom,0px)] md:max-w-[420px] md:flex-col md:p-6',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-center justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-card-hover data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none motion-safe:data-[state=open]:animate-toast-in-top motion-safe:md:data-[state=open]:animate-toast-in-bottom motion-safe:data-[state=closed]:animate-toast-out motion-safe:data-[swipe=end]:animate-toast-swipe-out',
  {
    variants: {
      variant: {
        default: 'border-line bg-paper text-ink',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export function Toast({
  className,
  variant,
  ...props
}: ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>) {
  return (
    <ToastPrimitive.Root
      data-variant={variant ?? 'default'}
      className={cn(toastVariants({ variant }), className)}
      {...props}
    />
  );
}

export function ToastAction({ className, ...props }: ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-9 shrink-0 cursor-pointer items-center justify-center rounded-md border border-ink/20 bg-transparent px-3 text-sm font-semibold transition-colors hover:bg-paper-deep group-data-[variant=destructive]:border-destructive-foreground/40 group-data-[variant=destructive]:hover:bg-destructive-hover',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label="Close"
      className={cn(
        'absolute top-2 right-2 grid size-8 cursor-pointer place-items-center rounded-md text-ink-muted transition-colors hover:bg-paper-deep hover:text-ink group-data-[variant=destructive]:text-destructive-foreground/80 group-data-[variant=destructive]:hover:bg-destructive-hover group-data-[variant=destructive]:hover:text-destructive-foreground',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </ToastPrimitive.Close>
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />;
}
