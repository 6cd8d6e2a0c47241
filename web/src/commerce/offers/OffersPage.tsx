/**
 * /account/offers (?view=made | received; the offer emails link here): every offer thread the
 * person is in (each one an OfferThreadCard).
 */
import { HandCoins } from 'lucide-react';
import { Link } from 'react-router-dom';
import { z } from 'zod';
import { LinkTabs } from '../../components/LinkTabs.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView, useFilterParams } from '../../kit/index.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { ThreadCard } from './OfferThreadCard.tsx';

/** ?view=received shows the offers on the person's books; anything else the offers they made. */
const filters = z.object({ view: z.enum(['made', 'received']).default('made') });

export function OffersPage() {
  usePageMeta('Your offers');
  const { view } = useFilterParams(filters).values;
  const list = trpc.commerce.offers.member.list.useQuery(
    { role: view === 'made' ? 'buyer' : 'seller' },
    { staleTime: 0 },
  );
  return (
    <div>
      <PageHeader
        title="Your offers"
        description="Offers you’ve made on books, and offers buyers have made on yours. Each offer lasts 48 hours; an accepted one must be paid within 24."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody>
        <div className="max-w-3xl">
          <LinkTabs
            label="Offers"
            testId="offer-tabs"
            tabs={[
              { to: '/account/offers?view=made', label: 'Offers made', current: view === 'made' },
              { to: '/account/offers?view=received', label: 'Offers received', current: view === 'received' },
            ]}
          />
          <div className="mt-4">
            <QueryView
              query={list}
              pending={
                <RowsSkeleton label="Loading your offers" rows={Array(3).fill('h-40 w-full rounded-xl')} />
              }
              error={(_message, retry) => (
                <QueryError what="your offers" onRetry={retry} retrying={list.isFetching} />
              )}
              empty={
                <div className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted">
                  <HandCoins aria-hidden="true" className="size-6 text-brand" />
                  {view === 'made' ? (
                    <>
                      <p>
                        You haven’t made any offers. On any book for sale, tap “Make an offer” and name your
                        price: at least half of what the seller asks.
                      </p>
                      <Button asChild variant="brand">
                        <Link to="/listings">Browse books</Link>
                      </Button>
                    </>
                  ) : (
                    <>
                      <p>
                        No offers on your books yet. When a buyer makes one, it appears here and we email you.
                      </p>
                      <Button asChild variant="brand">
                        <Link to="/account/listings">Your listings</Link>
                      </Button>
                    </>
                  )}
                </div>
              }
            >
              {(threads) => (
                <ul className="flex flex-col gap-4" data-testid="offer-threads">
                  {threads.map((thread) => (
                    <ThreadCard key={thread.currentId} thread={thread} />
                  ))}
                </ul>
              )}
            </QueryView>
          </div>
        </div>
      </PageBody>
    </div>
  );
}
