/**
 * "Cleanup duplicates", confirmed (decision 0023): the dialog first asks the server
 * for a dry run of the very function the button runs and shows what would go (how many of
 * each rule and some of their titles). Admins confirm it, sending the preview's digest back so
 * a set that changed meanwhile is refused; moderators see the preview only. Withdrawn listings
 * are not deleted: staff restore them from Listings for 30 days.
 */
import { CLEANUP_RESTORE_DAYS, countOf, formatPence } from '@reshelf/contracts';
import { Eraser, LoaderCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';

export function cleanupPreviewSummary(preview: { duplicates_removed: number; no_image_removed: number }) {
  return `${countOf(preview.duplicates_removed, 'duplicate', 'duplicates')} and ${countOf(preview.no_image_removed, 'listing', 'listings')} without an image`;
}

const RULE_LABELS = { duplicate: 'Duplicate', no_image: 'No image' } as const;

export function CleanupDialog({
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
      <DialogContent className="max-w-lg" data-testid="cleanup-dialog">
        {open ? (
          <CleanupPreview
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

function CleanupPreview({
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
  // Always fresh: the dialog shows what the clean-up would take now.
  const preview = trpc.staff.dashboard.cleanupPreview.useQuery(undefined, { staleTime: 0, gcTime: 0 });
  const data = preview.data;
  const nothing = data?.total_deleted === 0;
  const rest = data ? data.total_deleted - data.sample.length : 0;

  return (
    <div className="flex flex-col gap-4" aria-busy={preview.isFetching}>
      <DialogTitle className="pr-8">Clean up listings?</DialogTitle>
      <DialogDescription asChild>
        <div className="text-sm text-ink-soft" data-testid="cleanup-summary">
          {preview.isPending ? (
            <p className="flex items-center gap-2">
              <LoaderCircle aria-hidden="true" className="size-4 motion-safe:animate-spin" />
              Checking what the clean-up would take…
            </p>
          ) : preview.isError ? (
            <p>We couldn't check what the clean-up would take.</p>
          ) : nothing ? (
            <p>Nothing to clean up: no duplicate listings, and every listing has a photo or a cover.</p>
          ) : (
            <p>
              <strong className="text-ink">{countOf(data!.total_deleted, 'listing', 'listings')}</strong>{' '}
              would be taken off sale: {cleanupPreviewSummary(data!)}.
            </p>
          )}
        </div>
      </DialogDescription>

      {preview.isPending ? (
        <div className="flex flex-col gap-2">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : null}

      {preview.isError ? (
        <Alert tone="error" data-testid="cleanup-preview-failed">
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

      {data && !nothing ? (
        <>
          <ul
            className="flex flex-col divide-y divide-line rounded-lg border border-line"
            data-testid="cleanup-sample"
          >
            {data.sample.map((item) => (
              <li
                key={item.listing_id}
                data-testid="cleanup-sample-item"
                data-rule={item.rule}
                className="flex items-start justify-between gap-3 px-3 py-2.5"
              >
                <div className="min-w-0">
                  <p className="line-clamp-2 font-semibold break-words text-ink">
                    {item.slug ? (
                      <Link to={`/listing/${item.slug}`} className="hover:underline" target="_blank">
                        {item.title}
                      </Link>
                    ) : (
                      item.title
                    )}
                  </p>
                  <p className="truncate text-xs text-ink-muted">
                    {item.seller_name}
                    {item.price_minor !== null ? ` · ${formatPence(item.price_minor)}` : ''}
                    {item.authors ? ` · ${item.authors}` : ''}
                  </p>
                </div>
                <span className="shrink-0 rounded-full bg-brand-soft px-2 py-0.5 text-xs font-semibold text-brand">
                  {RULE_LABELS[item.rule]}
                </span>
              </li>
            ))}
          </ul>
          {rest > 0 ? (
            <p className="-mt-2 text-sm text-ink-muted" data-testid="cleanup-more">
              …and {countOf(rest, 'more listing', 'more listings')}.
            </p>
          ) : null}
          <Alert tone="info" live={false}>
            Nothing is deleted. Each listing is withdrawn with the reason, its seller is emailed, and staff
            can restore it from{' '}
            <Link
              to="/admin/listings?status=removed"
              className="font-semibold text-brand underline-offset-4 hover:underline"
            >
              Listings
            </Link>{' '}
            for {CLEANUP_RESTORE_DAYS} days. Listings with an order, and those a bulk upload made in the last
            24 hours, are never taken.
          </Alert>
          {!isAdmin ? (
            <Alert tone="info" live={false} data-testid="cleanup-admins-only">
              Only admins can run the clean-up. Ask an admin if these should go.
            </Alert>
          ) : null}
        </>
      ) : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" disabled={running} onClick={onClose}>
          {isAdmin && data && !nothing ? 'Not now' : 'Close'}
        </Button>
        {isAdmin && data && !nothing ? (
          <Button
            variant="destructive"
            disabled={running || preview.isFetching}
            aria-busy={running || undefined}
            onClick={() => onConfirm(data.digest)}
          >
            {running ? (
              <LoaderCircle aria-hidden="true" className="motion-safe:animate-spin" />
            ) : (
              <Eraser aria-hidden="true" />
            )}
            Withdraw {countOf(data.total_deleted, 'listing', 'listings')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
