import { Search } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { CategoryLinks, PopularCategories } from './PopularCategories.tsx';

export function SearchNotFoundPage() {
  const [search] = useSearchParams();
  const q = (search.get('q') ?? '').trim().slice(0, 200);
  usePageMeta(
    'No books found',
    'We couldn’t find that book on Reshelf. Try a similar title or browse a popular category.',
  );
  const suggestions = trpc.catalogue.discovery.public.suggestions.useQuery({ q }, { enabled: q.length > 0 });

  return (
    <>
      <PageHeader
        title={q ? <>No books found for “{q}”</> : 'No books found'}
        description="Nobody is selling a book that matches right now. Check the spelling, try fewer words, or search by the author or ISBN instead."
      />
      <PageBody className="flex flex-col gap-10">
        <section aria-labelledby="similar-title" data-testid="search-not-found">
          <h2 id="similar-title" className="mb-4 text-2xl font-semibold">
            Did you mean…
          </h2>
          {suggestions.isPending && q ? (
            <div role="status" aria-label="Loading suggestions" className="flex flex-col gap-2">
              <Skeleton className="h-6 w-64" />
              <Skeleton className="h-6 w-52" />
            </div>
          ) : suggestions.data?.titles.length ? (
            <ul className="flex flex-col gap-2" data-testid="similar-titles">
              {suggestions.data.titles.map((title) => (
                <li key={`${title.title}-${title.authors.join()}`}>
                  <Link
                    to={`/search?q=${encodeURIComponent(title.title)}`}
                    className="inline-flex items-center gap-2 font-serif text-lg font-semibold text-brand underline-offset-4 hover:underline"
                  >
                    <Search aria-hidden="true" className="size-4" />
                    {title.title}
                  </Link>
                  <span className="text-ink-muted"> by {title.authors.join(', ')}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-ink-muted">We have nothing with a similar title on sale at the moment.</p>
          )}
        </section>
        {suggestions.data?.categories.length ? (
          <section aria-labelledby="popular-title">
            <h2 id="popular-title" className="mb-4 text-2xl font-semibold">
              Popular categories
            </h2>
            <CategoryLinks categories={suggestions.data.categories} />
          </section>
        ) : !q ? (
          <PopularCategories />
        ) : null}
        <p className="text-ink-muted">
          Or{' '}
          <Link to="/listings" className="font-semibold text-brand underline-offset-4 hover:underline">
            browse every book for sale
          </Link>
          .
        </p>
      </PageBody>
    </>
  );
}
