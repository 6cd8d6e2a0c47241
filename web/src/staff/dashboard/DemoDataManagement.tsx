/** The dashboard's Demo Data Management: seed, reset and seed, and the listings cleanup. */
import { CLEANUP_RESTORE_DAYS, countOf, SEED_BOOK_COUNT } from '@reshelf/contracts';
import { Database, Eraser, LoaderCircle, type LucideIcon, RotateCcw, Sparkles } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { CleanupDialog } from './CleanupDialog.tsx';

import { useCleanupListings, useSeedDemoData } from './hooks.ts';

export function seedSummary(result: { listings: number; orders: number }): string {
  if (result.listings === 0 && result.orders === 0) {
    return 'The demo data was already in place: 0 listings and 0 orders added.';
  }
  return `${countOf(result.listings, 'listing', 'listings')} and ${countOf(result.orders, 'order', 'orders')} added.`;
}

export function cleanupSummary(result: {
  duplicates_removed: number;
  no_image_removed: number;
  total_deleted: number;
}): string {
  const removed = `Removed ${countOf(result.duplicates_removed, 'duplicate', 'duplicates')} and ${countOf(result.no_image_removed, 'listing', 'listings')} without an image: ${result.total_deleted} in total.`;
  return result.total_deleted > 0
    ? `${removed} Staff can restore them from Listings for ${CLEANUP_RESTORE_DAYS} days.`
    : removed;
}

/** The period in the address (?period=), shown at once when chosen; the address follows. */
export function DemoDataManagement() {
  const onSeedError = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Seeding failed', description: apiErrorMessage(error) });
  const seed = useSeedDemoData({
    onSuccess: (result) => toast({ title: 'Seeded demo data', description: seedSummary(result) }),
    onError: onSeedError,
  });
  const resetAndSeed = useSeedDemoData({
    onSuccess: (result) => toast({ title: 'Reset and seeded', description: seedSummary(result) }),
    onError: onSeedError,
  });
  const access = trpc.staff.dashboard.access.useQuery();
  const [cleanupOpen, setCleanupOpen] = useState(false);
  const cleanup = useCleanupListings({
    onSuccess: (result) => toast({ title: 'Cleanup complete', description: cleanupSummary(result) }),
    onError: (error) =>
      toast({ variant: 'destructive', title: 'Cleanup failed', description: apiErrorMessage(error) }),
    onSettled: () => setCleanupOpen(false),
  });

  return (
    <section
      aria-labelledby="demo-data-title"
      data-testid="demo-data"
      className="rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
    >
      <h2 id="demo-data-title" className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Database aria-hidden="true" className="size-4.5" />
        </span>
        Demo Data Management
      </h2>
      <ul className="mt-3 flex max-w-3xl flex-col gap-1.5 text-sm text-ink-muted">
        <li>
          <strong className="text-ink">Seed</strong> puts {SEED_BOOK_COUNT} real books on sale from the demo
          sellers and charities, with orders across the periods (some disputed). Seeding again adds only what
          has gone.
        </li>
        <li>
          <strong className="text-ink">Reset and Seed</strong> first removes everything an earlier seed made,
          and nothing else.
        </li>
        <li>
          <strong className="text-ink">Cleanup</strong> takes off sale duplicate listings (one seller's copies
          of a book in the same condition, at the same price: the oldest stays) and listings with no photo and
          no cover image. It shows what would go before anything happens; staff can restore them for{' '}
          {CLEANUP_RESTORE_DAYS} days. Admins run it.
        </li>
      </ul>
      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <RunButton
          variant="brand"
          icon={Sparkles}
          running={seed.isPending}
          onClick={() => seed.mutate({ reset: false })}
        >
          Seed 40 books + orders
        </RunButton>
        <RunButton
          variant="outline"
          icon={RotateCcw}
          running={resetAndSeed.isPending}
          onClick={() => resetAndSeed.mutate({ reset: true })}
        >
          Reset and Seed
        </RunButton>
        <RunButton
          variant="outline"
          icon={Eraser}
          running={cleanup.isPending}
          onClick={() => setCleanupOpen(true)}
        >
          Cleanup duplicates
        </RunButton>
      </div>
      <CleanupDialog
        open={cleanupOpen}
        onOpenChange={setCleanupOpen}
        isAdmin={access.data?.isAdmin ?? false}
        running={cleanup.isPending}
        onConfirm={(digest) => cleanup.mutate({ expected: digest })}
      />
    </section>
  );
}

function RunButton({
  variant,
  icon: Icon,
  running,
  onClick,
  children,
}: {
  variant: 'brand' | 'outline';
  icon: LucideIcon;
  running: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button
      variant={variant}
      disabled={running}
      aria-busy={running}
      onClick={onClick}
      className={cn('w-full sm:w-auto')}
    >
      {running ? (
        <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
      ) : (
        <Icon aria-hidden="true" />
      )}
      {children}
    </Button>
  );
}
