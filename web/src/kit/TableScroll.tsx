import type { ReactNode } from 'react';
import { cn } from '../lib/utils.ts';

/**
 * A wide table's sideways scroll box: a named region in the tab order, so someone on a keyboard
 * can focus it and scroll it with the arrow keys (a named <section> is a region) (WCAG 2.1.1; axe's scrollable-region-focusable).
 * The focus ring is the site's own (styles.css).
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  /** What the table is, for the region's name ("Payouts", "Rows to correct"). */
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
    <section aria-label={label} tabIndex={0} className={cn('overflow-x-auto', className)}>
      {children}
    </section>
  );
}
