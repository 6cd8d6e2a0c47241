import type { ListingStatus, LockReason } from '@reshelf/contracts';
import { cn } from '../../lib/utils.ts';

const LABELS: Record<ListingStatus, string> = {
  draft: 'Draft',
  active: 'On sale',
  reserved: 'Reserved',
  sold: 'Sold',
  withdrawn: 'Withdrawn',
  removed: 'Removed by Reshelf',
};

const TONES: Record<ListingStatus, string> = {
  draft: 'bg-paper-edge text-ink-soft',
  active: 'bg-moss-soft text-moss',
  reserved: 'bg-accent/25 text-accent-foreground',
  sold: 'bg-ink text-paper',
  withdrawn: 'bg-paper-deep text-ink-muted',
  removed: 'bg-destructive/10 text-destructive',
};

/** A listing's status as a small pill; a paid-for listing still marked on sale says "Sold". */
export function StatusBadge({ status, lock = null }: { status: ListingStatus; lock?: LockReason | null }) {
  const shown: ListingStatus = lock === 'sold' ? 'sold' : lock === 'reserved' ? 'reserved' : status;
  return (
    <span
      className={cn('inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold', TONES[shown])}
      data-testid="status-badge"
    >
      {LABELS[shown]}
    </span>
  );
}
