import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

/** Shared by text inputs and text areas: paper-white field, brand focus ring, red when invalid. */
export const fieldClasses =
  'w-full min-w-0 rounded-lg border border-ink/20 bg-white px-3 text-base text-ink shadow-xs transition-colors placeholder:text-ink-muted/70 hover:border-ink/35 focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand/40 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/40';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={cn(fieldClasses, 'h-11', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldClasses, 'min-h-28 py-2.5 leading-relaxed', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor (or wrap the control).
  return <label className={cn('text-sm font-semibold text-ink', className)} {...props} />;
}
