import type { ComponentProps } from 'react';

/**
 * A chart's drawing (recharts), shown for the eye only: the figures beside it (a table, the
 * totals) are what assistive technology reads. `inert` keeps the drawing's focusable parts (the
 * chart's keyboard layer) out of the tab order as well as out of the accessibility tree, so
 * nothing focusable sits inside `aria-hidden` (WCAG 4.1.2; axe's aria-hidden-focus).
 */
export function ChartArea(props: Omit<ComponentProps<'div'>, 'aria-hidden' | 'inert'>) {
  return <div {...props} aria-hidden="true" inert />;
}
