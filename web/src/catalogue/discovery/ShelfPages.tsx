import { countOf } from '@reshelf/contracts';
import { ArrowRight } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { FollowButton } from '../../community/index.ts';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { ListingGrid } from '../listings/ListingGrid.tsx';
import { ListingsBrowser } from '../listings/ListingsBrowser.tsx';

const noRetryOn404 = { retry: (count: number, error: unknown) => !isNotFound(error) && count < 1 };

export function CategoriesPage() {
  usePageMeta(
    'Categories',
    'Browse second-hand books by category: fiction, crime, fantasy, history, cookery and more.',
  );
  const categories = trpc.catalogue.discovery.public.categories.useQuery();
  return (
    <>
      <PageHeader
        title="Categories"
        description="Every shelf on Reshelf, with how many books are on it today."
      />
      <PageBody>
        {categories.isPending ? (
          <PageSkeleton />
        ) : categories.isError ? (
          <QueryError
            what="the categories"
            onRetry={() => categories.refetch()}
            retrying={categories.isFetching}
          />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="category-list">
            {categories.data.map((category) => (
              <li key={category.slug}>
                <Link
                  to={`/c/${category.slug}`}
                  data-testid="category-card"
                  className="group flex h-full flex-col gap-2 rounded-xl border border-line bg-paper p-5 shadow-card transition hover:border-ink/25 hover:shadow-card-hover"
                >
                  <span className="flex items-start justify-between gap-3">
                    <span className="font-serif text-xl font-semibold">{category.name}</span>
                    <ArrowRight
                      aria-hidden="true"
                      className="mt-1 size-4 shrink-0 text-ink-muted group-hover:text-brand"
                    />
                  </span>
                  <span className="line-clamp-2 text-sm text-ink-muted">{category.description}</span>
                  <span className="mt-auto text-sm font-semibold text-moss">
                    {countOf(category.activeListings, 'book', 'books')}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </PageBody>
    </>
  );
}

export function CategoryPage() {
  const { slug = '' } = useParams();
  const category = trpc.catalogue.discovery.public.category.useQuery({ slug }, noRetryOn404);
  const name = category.data?.name;
  usePageMeta(
    category.data?.seoTitle ??
      (name ? `${name} books` : category.isError ? 'Category not found' : 'Category'),
    category.data?.seoDescription ??
      (name
        ? `Second-hand ${name.toLowerCase()} books for sale on Reshelf. ${category.data?.description ?? ''}`.trim()
        : undefined),
  );
  if (category.isError && isNotFound(category.error)) return <NotFoundContent />;
  return (
    <>
      <PageHeader
        title={name ?? '\u00a0'}
        description={category.data?.description}
        crumbs={[
          { to: '/categories', label: 'Categories' },
          ...(category.data?.parent
            ? [{ to: `/c/${category.data.parent.slug}`, label: category.data.parent.name }]
            : []),
        ]}
      />
      <PageBody>
        {category.isError ? (
          <QueryError
            what="this category"
            onRetry={() => category.refetch()}
            retrying={category.isFetching}
          />
        ) : (
          <ListingsBrowser
            fixed={{ category: slug }}
            byBook
            empty={<p>No books in this category are for sale right now.</p>}
          />
        )}
      </PageBody>
    </>
  );
}

export function GenrePage() {
  const { slug = '' } = useParams();
  const genre = trpc.catalogue.discovery.public.genre.useQuery({ slug }, noRetryOn404);
  const name = genre.data?.name;
  usePageMeta(
    name ? `${name} books` : genre.isError ? 'Genre not found' : 'Genre',
    name ? `Second-hand ${name.toLowerCase()} books for sale on Reshelf.` : undefined,
  );
  if (genre.isError && isNotFound(genre.error)) return <NotFoundContent />;
  return (
    <>
      <PageHeader
        title={name ?? '\u00a0'}
        description={
          genre.data
            ? `${countOf(genre.data.activeListings, 'pre-loved book', 'pre-loved books')} in this genre.`
            : undefined
        }
        crumbs={[{ to: '/categories', label: 'Categories' }]}
      >
        {genre.data ? (
          <FollowButton target={{ kind: 'genre', genreSlug: slug }} name={genre.data.name} className="mt-4" />
        ) : null}
      </PageHeader>
      <PageBody>
        <ListingsBrowser
          fixed={{ genre: slug }}
          byBook
          empty={<p>No books in this genre are for sale right now.</p>}
        />
      </PageBody>
    </>
  );
}

export function TrendingPage() {
  usePageMeta(
    'Trending books',
    'The books readers on Reshelf are viewing, saving and buying most this fortnight.',
  );
  const trending = trpc.catalogue.discovery.public.trending.useQuery({ limit: 48 });
  return (
    <>
      <PageHeader
        title="Trending"
        description="What readers are looking at, saving to their wishlists and buying over the last fortnight."
      />
      <PageBody>
        <ListingGrid
          query={trending}
          what="trending books"
          empty={<p>Nothing is trending yet. Check back soon.</p>}
        />
      </PageBody>
    </>
  );
}

export function RecentlyAddedPage() {
  usePageMeta('Recently added books', 'The newest pre-loved books listed on Reshelf.');
  return (
    <>
      <PageHeader
        title="Recently added"
        description="Fresh on the shelves: the newest books for sale, newest first."
      />
      <PageBody>
        <ListingsBrowser />
      </PageBody>
    </>
  );
}

export function StaffPicksPage() {
  usePageMeta('Staff picks', 'Second-hand books the Reshelf team loves, each with a line on why.');
  const picks = trpc.catalogue.discovery.public.staffPicks.useQuery({ limit: 48 });
  const notes = new Map(picks.data?.map((pick) => [pick.id, pick.note]));
  return (
    <>
      <PageHeader
        title="Staff picks"
        description="Books the Reshelf team has read, loved and wants you to find."
      />
      <PageBody>
        <ListingGrid
          query={picks}
          notes={notes}
          what="staff picks"
          empty={<p>Our team is choosing new picks. Check back soon.</p>}
        />
      </PageBody>
    </>
  );
}
