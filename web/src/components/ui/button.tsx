import { Slot } from '@radix-ui/react-slot';
import type { BUTTON_SIZES, BUTTON_VARIANTS } from '@reshelf/contracts';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];
export type ButtonSize = (typeof BUTTON_SIZES)[number];

/*
 * `satisfies Record<...>` makes the compiler reject a missing or an extra key, so the variants and
 * sizes here cannot drift from the spec's list in @reshelf/contracts.
 */
const variants = {
  default: 'bg-ink text-paper shadow-sm hover:bg-ink-soft',
  brand: 'bg-brand text-brand-foreground shadow-sm hover:bg-brand-hover',
  hero: 'rounded-full bg-brand text-brand-foreground shadow-card hover:bg-brand-hover hover:shadow-card-hover',
  cta: 'bg-accent text-accent-foreground shadow-sm hover:bg-accent-hover',
  destructive: 'bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive-hover',
  outline: 'border border-ink/20 bg-paper text-ink hover:border-ink/35 hover:bg-paper-deep',
  secondary: 'bg-paper-deep text-ink hover:bg-paper-edge',
  ghost: 'text-ink hover:bg-paper-deep',
  link: 'h-auto px-0 text-brand underline-offset-4 hover:underline',
} satisfies Record<ButtonVariant, string>;

const sizes = {
  default: 'h-10 px-4 py-2',
  sm: 'h-9 rounded-md px-3',
  lg: 'h-12 rounded-lg px-6 text-base',
  icon: 'size-10',
} satisfies Record<ButtonSize, string>;

export const buttonVariants = cva(
  'inline-flex shrink-0 cursor-pointer items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-semibold transition-colors disabled:pointer-events-none disabled:opacity-55 aria-disabled:pointer-events-none aria-disabled:opacity-55 [&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: { variant: variants, size: sizes },
    compoundVariants: [
      { variant: 'link', size: ['default', 'sm', 'lg'], className: 'h-auto px-0 py-0' },
      { variant: 'hero', size: ['default', 'sm', 'lg'], className: 'rounded-full' },
    ],
    defaultVariants: { variant: 'default', size: 'default' },
  },
);

export type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child (e.g. a router Link) with the button's styles instead of a <button>. */
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  if (asChild) {
    return <Slot className={cn(buttonVariants({ variant, size }), className)} {...props} />;
  }
  return (
    <button type={type ?? 'button'} className={cn(buttonVariants({ variant, size }), className)} {...props} />
  );
}
