import type { CategorySummary } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';

export function CategoryLinks({ categories }: { categories: CategorySummary[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="popular-categories">
      {categories.map((category) => (
        <li key={category.slug}>
          <Link
            to={`/c/${category.slug}`}
            className="group flex items-center justify-between gap-3 rounded-xl border border-line bg-paper px-4 py-3 shadow-card transition hover:border-ink/25 hover:shadow-card-hover"
          >
            <span>
              <span className="block font-serif text-lg font-semibold">{category.name}</span>
              <span className="text-sm text-ink-muted">
                {countOf(category.activeListings, 'book', 'books')}
              </span>
            </span>
            <ArrowRight aria-hidden="true" className="size-4 text-ink-muted group-hover:text-brand" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The shelves with the most books, for a search with nothing to show. */
export function PopularCategories() {
  const categories = trpc.catalogue.discovery.public.categories.useQuery();
  const popular = (categories.data ?? [])
    .filter((category) => category.activeListings > 0)
    .sort((a, b) => b.activeListings - a.activeListings)
    .slice(0, 6);
  if (!popular.length) return null;
  return (
    <section aria-labelledby="popular-categories-title">
      <h2 id="popular-categories-title" className="mb-4 text-2xl font-semibold">
        Popular categories
      </h2>
      <CategoryLinks categories={popular} />
    </section>
  );
}
