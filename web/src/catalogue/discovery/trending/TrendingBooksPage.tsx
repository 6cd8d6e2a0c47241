/**
 * /admin/trending-books (also /admin/trending): the list /trending and the home page's shelf
 * show — computed from the last 14 days' views, wishlist saves and sales — with the staff's
 * overrides. Pin a listing to keep it at the top while it is on sale; hide one to take its book
 * off the list. Pins and hides are listed below, to undo.
 */
import { formatPence } from '@reshelf/contracts';
import { EyeOff, Pin, Undo2 } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { useClearTrendingOverride, useSetTrendingOverride } from './hooks.ts';

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

export function TrendingBooksPage() {
  const board = trpc.catalogue.discovery.trending.board.useQuery();
  const set = useSetTrendingOverride({
    onSuccess: (_data, input) =>
      toast(
        input.mode === 'pin'
          ? { title: 'Pinned to trending', description: 'It now shows at the top of /trending.' }
          : { title: 'Hidden from trending', description: 'The book no longer shows on /trending.' },
      ),
    onError: failed('Trending not changed'),
  });
  const clear = useClearTrendingOverride({
    onSuccess: () => toast({ title: 'Override removed', description: 'Trending computes its place again.' }),
    onError: failed('Override not removed'),
  });
  const busy = set.isPending || clear.isPending;

  return (
    <AdminPageFrame
      title="Trending books"
      description="What /trending shows: books ranked by the last 14 days' views, wishlist saves and sales, each by its cheapest copy. Pin a listing to keep it on top; hide one to take its book off the list."
      testId="trending-books-page"
      actions={
        <Button asChild variant="outline">
          <Link to="/trending">See the public page</Link>
        </Button>
      }
    >
      <QueryView query={board} pending="Loading trending books…">
        {(data) => (
          <>
            <section className="flex flex-col gap-3" aria-labelledby="trending-list-title">
              <h2 id="trending-list-title" className="text-xl font-semibold">
                The public list
              </h2>
              {data.list.length === 0 ? (
                <EmptyState testId="trending-empty">
                  Nothing is trending: no book on sale was viewed, saved or sold in the last 14 days.
                </EmptyState>
              ) : (
                <ol className="flex flex-col gap-2" data-testid="trending-list" aria-busy={busy}>
                  {data.list.map((card, index) => (
                    <li
                      key={card.id}
                      data-testid="trending-item"
                      data-listing={card.id}
                      className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-center"
                    >
                      <span className="font-serif text-2xl font-semibold text-ink-muted tabular-nums">
                        {index + 1}
                      </span>
                      <div className="min-w-0 flex-1">
                        <p className="font-semibold">
                          <Link to={`/listing/${card.slug}`} className="hover:underline">
                            {card.title}
                          </Link>
                          {card.pinned ? (
                            <span className="ml-2 rounded bg-brand/10 px-1.5 py-0.5 text-xs font-semibold text-brand">
                              Pinned
                            </span>
                          ) : null}
                        </p>
                        <p className="text-sm text-ink-muted">
                          {card.authors.join(', ')} · asking {formatPence(card.priceMinor)}
                        </p>
                      </div>
                      <div className="flex gap-2">
                        {card.pinned ? null : (
                          <Button
                            variant="outline"
                            size="sm"
                            aria-label={`Pin ${card.title}`}
                            disabled={busy}
                            onClick={() => set.mutate({ listingId: card.id, mode: 'pin' })}
                          >
                            <Pin aria-hidden="true" /> Pin
                          </Button>
                        )}
                        <Button
                          variant="outline"
                          size="sm"
                          aria-label={`Hide ${card.title}`}
                          disabled={busy}
                          onClick={() => set.mutate({ listingId: card.id, mode: 'hide' })}
                        >
                          <EyeOff aria-hidden="true" /> Hide
                        </Button>
                      </div>
                    </li>
                  ))}
                </ol>
              )}
            </section>

            <section className="flex flex-col gap-3" aria-labelledby="trending-overrides-title">
              <h2 id="trending-overrides-title" className="text-xl font-semibold">
                Pinned and hidden
              </h2>
              {data.overrides.length === 0 ? (
                <EmptyState testId="trending-overrides-empty">
                  Nothing pinned or hidden: the list is as computed.
                </EmptyState>
              ) : (
                <ul className="flex flex-col gap-2" data-testid="trending-overrides">
                  {data.overrides.map((row) => (
                    <li
                      key={row.listingId}
                      data-testid="trending-override"
                      data-mode={row.mode}
                      className="flex flex-col gap-2 rounded-xl border border-line bg-paper p-3 sm:flex-row sm:items-center sm:justify-between"
                    >
                      <div className="min-w-0">
                        <p className="font-semibold">
                          {row.mode === 'pin' ? 'Pinned: ' : 'Hidden: '}
                          {row.title}
                          {row.mode === 'pin' && row.status !== 'active' ? (
                            <span className="ml-2 rounded bg-destructive/10 px-1.5 py-0.5 text-xs font-semibold text-destructive">
                              {row.status}: not shown
                            </span>
                          ) : null}
                        </p>
                        <p className="text-sm text-ink-muted break-all">
                          {row.setBy ?? 'A former staff member'} · {formatDateTime(row.createdAt)}
                        </p>
                      </div>
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`${row.mode === 'pin' ? 'Unpin' : 'Unhide'} ${row.title}`}
                        disabled={busy}
                        onClick={() => clear.mutate({ listingId: row.listingId })}
                      >
                        <Undo2 aria-hidden="true" /> {row.mode === 'pin' ? 'Unpin' : 'Unhide'}
                      </Button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}
