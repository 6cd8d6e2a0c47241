import { countOf } from '@reshelf/contracts';
import { Heart } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { ListingGrid } from '../listings/ListingGrid.tsx';

/** /account/wishlist: the books the person saved, newest first; sold ones say so. */
export function WishlistPage() {
  usePageMeta('Your wishlist');
  const list = trpc.catalogue.wishlist.list.useQuery(undefined, { staleTime: 0 });
  const count = list.data?.length ?? 0;
  return (
    <div>
      <PageHeader
        title="Your wishlist"
        description={
          list.data
            ? count
              ? `${countOf(count, 'book', 'books')} saved. We’ll tell you when one drops in price or sells.`
              : 'Books you save appear here.'
            : 'Books you save appear here.'
        }
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody>
        <ListingGrid
          query={list}
          what="your wishlist"
          testId="wishlist-grid"
          empty={
            <div className="flex flex-col items-start gap-4">
              <Heart aria-hidden="true" className="size-6 text-brand" />
              <p>
                Nothing saved yet. Tap the heart on any book to keep it here, and we’ll let you know if its
                price drops.
              </p>
              <p className="text-ink-soft">
                Your wishlist keeps copies already on sale. Looking for a book nobody is selling yet? Choose
                “Want this book” on its page and it goes in your{' '}
                <Link to="/account/wants" className="underline">
                  wants
                </Link>
                .
              </p>
              <Button asChild variant="brand">
                <Link to="/listings">Browse books</Link>
              </Button>
            </div>
          }
        />
      </PageBody>
    </div>
  );
}
