/**
 * "Reset and Seed", confirmed: the dialog first asks the server what a reset would
 * remove (staff.dashboard.resetPreview: the listings, orders and disputes earlier seeds made,
 * counted) and says it before anything happens, as the clean-up does. Admins confirm it,
 * sending the preview's digest back so demo data that changed meanwhile is not reset unseen;
 * moderators see what it would remove only.
 */
import { countOf } from '@reshelf/contracts';
import { LoaderCircle, RotateCcw } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

/** "40 listings on sale, 24 sold listings, 24 orders and 4 disputes". */
export function resetPreviewSummary(preview: {
  listings: number;
  soldListings: number;
  orders: number;
  disputes: number;
}): string {
  const parts = [
    countOf(preview.listings, 'listing on sale', 'listings on sale'),
    countOf(preview.soldListings, 'sold listing', 'sold listings'),
    countOf(preview.orders, 'order', 'orders'),
    countOf(preview.disputes, 'dispute', 'disputes'),
  ];
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export function ResetDialog({
  open,
  onOpenChange,
  isAdmin,
  running,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  isAdmin: boolean;
  running: boolean;
  onConfirm: (digest: string) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (running ? undefined : onOpenChange(next))}>
      <DialogContent className="max-w-lg" data-testid="reset-dialog">
        {open ? (
          <ResetPreview
            isAdmin={isAdmin}
            running={running}
            onConfirm={onConfirm}
            onClose={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function ResetPreview({
  isAdmin,
  running,
  onConfirm,
  onClose,
}: {
  isAdmin: boolean;
  running: boolean;
  onConfirm: (digest: string) => void;
  onClose: () => void;
}) {
  // Always fresh: the dialog shows what a reset would remove now.
  const preview = trpc.staff.dashboard.resetPreview.useQuery(undefined, { staleTime: 0, gcTime: 0 });
  const data = preview.data;
  return (
    <div className="flex flex-col gap-4" aria-busy={preview.isFetching}>
      <DialogTitle className="pr-8">Reset and seed the demo data?</DialogTitle>
      <DialogDescription asChild>
        <div className="text-sm text-ink-soft" data-testid="reset-summary">
          {preview.isPending ? (
            <p className="flex items-center gap-2">
              <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
              Counting what a reset would remove…
            </p>
          ) : preview.isError ? (
            <p>We couldn't count what a reset would remove.</p>
          ) : (
            <p>
              A reset deletes what earlier seeds made:{' '}
              <strong className="text-ink">{resetPreviewSummary(data!)}</strong>, with the demo books and
              charities no one else uses. Then it seeds the demo data again.
            </p>
          )}
        </div>
      </DialogDescription>

      {preview.isPending ? <Skeleton className="h-16 w-full" /> : null}

      {preview.isError ? (
        <Alert tone="error" data-testid="reset-preview-failed">
          {apiErrorMessage(preview.error)}{' '}
          <button
            type="button"
            onClick={() => void preview.refetch()}
            className="cursor-pointer font-semibold text-brand underline-offset-4 hover:underline"
          >
            Try again
          </button>
        </Alert>
      ) : null}

      {data ? (
        <Alert tone="warning" live={false}>
          This deletes them, unlike the clean-up: nothing can be restored. Anything else stays, and so does a
          demo listing a real order still needs.
        </Alert>
      ) : null}
      {data && !isAdmin ? (
        <Alert tone="info" live={false} data-testid="reset-admins-only">
          Only admins can reset the demo data. Seed adds what has gone without deleting anything.
        </Alert>
      ) : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" disabled={running} onClick={onClose}>
          {isAdmin && data ? 'Not now' : 'Close'}
        </Button>
        {isAdmin && data ? (
          <Button
            variant="destructive"
            disabled={running || preview.isFetching}
            aria-busy={running || undefined}
            onClick={() => onConfirm(data.digest)}
          >
            {running ? (
              <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <RotateCcw aria-hidden="true" />
            )}
            Delete and seed again
          </Button>
        ) : null}
      </div>
    </div>
  );
}
