/**
 * A panel that slides in from the edge of the screen over the page (a Radix dialog): focus is
 * trapped inside, Escape or a click outside closes it. Used for the staff sidebar on phones.
 */
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';
import { useReturnFocus } from './return-focus.ts';

export const Sheet = DialogPrimitive.Root;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

export function SheetContent({
  className,
  children,
  side = 'left',
  closeLabel = 'Close',
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { side?: 'left' | 'right'; closeLabel?: string }) {
  const focus = useReturnFocus(props);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-[60] bg-ink/55 motion-safe:data-[state=open]:animate-fade-in motion-safe:data-[state=closed]:animate-fade-out" />
      <DialogPrimitive.Content
        className={cn(
          'fixed inset-y-0 z-[60] flex h-dvh flex-col bg-paper shadow-card-hover focus:outline-none',
          side === 'left'
            ? 'left-0 border-r border-line motion-safe:data-[state=open]:animate-sheet-in-left motion-safe:data-[state=closed]:animate-sheet-out-left'
            : 'right-0 border-l border-line',
          className,
        )}
        {...props}
        {...focus}
      >
        {children}
        <DialogPrimitive.Close
          aria-label={closeLabel}
          className="absolute top-3 right-3 grid size-9 cursor-pointer place-items-center rounded-md text-ink-muted transition-colors hover:bg-paper-deep hover:text-ink"
        >
          <X aria-hidden="true" className="size-4" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
