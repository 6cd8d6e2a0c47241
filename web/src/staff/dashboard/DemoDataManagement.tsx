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
import { useCleanupListings, useResetAndSeed, useSeedDemoData } from './hooks.ts';
import { ResetDialog } from './ResetDialog.tsx';

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

/**
 * Seed, Reset and Seed, and Cleanup, each button beside what it does. The buttons keep to the
 * left, so the primary toast (bottom right on a desktop) never covers one while it shows the
 * result of another. Reset and Seed and Cleanup say what they would remove first.
 */
export function DemoDataManagement() {
  const onSeedError = (error: unknown) =>
    toast({ variant: 'destructive', title: 'Seeding failed', description: apiErrorMessage(error) });
  const seed = useSeedDemoData({
    onSuccess: (result) => toast({ title: 'Seeded demo data', description: seedSummary(result) }),
    onError: onSeedError,
  });
  const access = trpc.staff.dashboard.access.useQuery();
  const isAdmin = access.data?.isAdmin ?? false;
  const [resetOpen, setResetOpen] = useState(false);
  const resetAndSeed = useResetAndSeed({
    onSuccess: (result) => toast({ title: 'Reset and seeded', description: seedSummary(result) }),
    onError: onSeedError,
    onSettled: () => setResetOpen(false),
  });
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
      <ul className="mt-4 flex max-w-4xl flex-col gap-4">
        <Action
          button={
            <RunButton
              variant="brand"
              icon={Sparkles}
              running={seed.isPending}
              onClick={() => seed.mutate({ reset: false })}
            >
              Seed 40 books + orders
            </RunButton>
          }
        >
          Puts {SEED_BOOK_COUNT} real books on sale from the demo sellers and charities, with orders across
          the periods (some disputed). Seeding again adds only what has gone.
        </Action>
        <Action
          button={
            <RunButton
              variant="outline"
              icon={RotateCcw}
              running={resetAndSeed.isPending}
              onClick={() => setResetOpen(true)}
            >
              Reset and Seed
            </RunButton>
          }
        >
          First deletes everything an earlier seed made, and nothing else; it says how much before it starts.
          Admins run it.
        </Action>
        <Action
          button={
            <RunButton
              variant="outline"
              icon={Eraser}
              running={cleanup.isPending}
              onClick={() => setCleanupOpen(true)}
            >
              Cleanup duplicates
            </RunButton>
          }
        >
          Takes off sale duplicate listings (one seller's copies of a book in the same condition, at the same
          price: the oldest stays) and listings with no photo and no cover image. It shows what would go
          before anything happens; staff can restore them for {CLEANUP_RESTORE_DAYS} days. Admins run it.
        </Action>
      </ul>
      <ResetDialog
        open={resetOpen}
        onOpenChange={setResetOpen}
        isAdmin={isAdmin}
        running={resetAndSeed.isPending}
        onConfirm={(digest) => resetAndSeed.mutate({ expected: digest })}
      />
      <CleanupDialog
        open={cleanupOpen}
        onOpenChange={setCleanupOpen}
        isAdmin={isAdmin}
        running={cleanup.isPending}
        onConfirm={(digest) => cleanup.mutate({ expected: digest })}
      />
    </section>
  );
}

/** One action: its button on the left, what it does beside it (below it on a phone). */
function Action({ button, children }: { button: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-5">
      <div className="shrink-0 sm:w-56">{button}</div>
      <p className="text-sm text-ink-muted sm:pt-2">{children}</p>
    </li>
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
      className={cn('w-full')}
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
