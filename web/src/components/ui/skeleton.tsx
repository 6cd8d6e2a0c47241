import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';

/** A decorative shimmer block; wrap groups of them in an element that carries aria-busy and a label. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      aria-hidden="true"
      className={cn('rounded-md motion-safe:animate-pulse bg-paper-edge/70', className)}
      {...props}
    />
  );
}
