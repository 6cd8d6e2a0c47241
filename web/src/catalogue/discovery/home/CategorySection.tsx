import type { Category } from '@reshelf/contracts';
import { AlertCircle, ArrowRight, Loader2, RotateCw } from 'lucide-react';
import { Link } from 'react-router-dom';
import { CategoryGridSkeleton } from '../../../components/placeholders.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';

const GRID = 'mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3';

export function CategorySection() {
  return (
    <section
      aria-labelledby="categories-title"
      className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 md:py-16 lg:px-8"
    >
      <h2 id="categories-title" className="text-3xl font-semibold sm:text-4xl">
        Browse by category
      </h2>
      <p className="mt-2 max-w-2xl text-ink-muted">
        From page-turners to textbooks: find your next read on someone else's shelf.
      </p>
      <CategoryList />
    </section>
  );
}

function CategoryList() {
  const categories = trpc.catalogue.taxonomy.public.categories.useQuery();

  if (categories.isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading categories" className={GRID}>
        <CategoryGridSkeleton />
      </div>
    );
  }

  if (categories.isError) {
    const retrying = categories.isFetching;
    return (
      <div
        role="alert"
        className="mt-8 flex flex-col items-start gap-4 rounded-xl border border-destructive/25 bg-destructive/5 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
      >
        <div className="flex gap-3">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
          <div>
            <p className="font-semibold text-ink">We couldn't load the categories.</p>
            <p className="mt-1 text-sm text-ink-muted">Check your connection, then try again.</p>
          </div>
        </div>
        <Button variant="outline" onClick={() => categories.refetch()} disabled={retrying}>
          {retrying ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <RotateCw aria-hidden="true" />
          )}
          {retrying ? 'Trying again…' : 'Try again'}
        </Button>
      </div>
    );
  }

  if (categories.data.length === 0) {
    return (
      <div className="mt-8 rounded-xl border border-dashed border-line p-6 text-ink-muted">
        <p>There are no categories to browse yet.</p>
        <Link
          to="/listings"
          className="mt-2 inline-block font-semibold text-brand underline-offset-4 hover:underline"
        >
          See every book for sale
        </Link>
      </div>
    );
  }

  return (
    <ul data-testid="category-list" className={GRID}>
      {categories.data.map((category, index) => (
        <li key={category.id}>
          <CategoryCard category={category} accent={ACCENTS[index % ACCENTS.length] ?? ACCENTS[0]} />
        </li>
      ))}
    </ul>
  );
}

/** A coloured spine along each card, cycling through the palette. */
const ACCENTS = ['bg-brand', 'bg-moss', 'bg-accent', 'bg-ink-soft'] as const;

function CategoryCard({ category, accent }: { category: Category; accent: string }) {
  return (
    <Link
      to={`/c/${category.slug}`}
      data-testid="category-card"
      className="group relative flex h-full min-h-28 flex-col gap-2 overflow-hidden rounded-xl border border-line bg-paper py-5 pr-5 pl-7 shadow-card transition duration-200 motion-safe:hover:-translate-y-0.5 hover:border-ink/25 hover:shadow-card-hover"
    >
      <span aria-hidden="true" className={cn('absolute inset-y-0 left-0 w-1.5', accent)} />
      <span className="flex items-start justify-between gap-3">
        <h3 className="text-xl font-semibold break-words">{category.name}</h3>
        <ArrowRight
          aria-hidden="true"
          className="mt-1 size-4 shrink-0 text-ink-muted transition-transform motion-safe:group-hover:translate-x-0.5 group-hover:text-brand"
        />
      </span>
      <p className="line-clamp-2 text-sm text-ink-muted">
        {category.description ?? `Pre-loved books in ${category.name}.`}
      </p>
    </Link>
  );
}
