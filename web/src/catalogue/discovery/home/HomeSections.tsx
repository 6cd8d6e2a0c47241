import type { Home, ListingCard } from '@reshelf/contracts';
import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CharityCard } from '../../../charities/index.ts';
import { ListingsGridSkeleton } from '../../../components/placeholders.tsx';
import { QueryError } from '../../../components/QueryError.tsx';
import { trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { ListingCards } from '../../listings/ListingGrid.tsx';

function Shelf({
  id,
  title,
  blurb,
  more,
  children,
  className,
}: {
  id: string;
  title: string;
  blurb: string;
  more: { to: string; label: string };
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={cn('mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 md:py-12 lg:px-8', className)}
      data-testid={id}
    >
      <div className="mb-6 flex flex-wrap items-end justify-between gap-x-6 gap-y-2">
        <div>
          <h2 id={`${id}-title`} className="text-3xl font-semibold sm:text-4xl">
            {title}
          </h2>
          <p className="mt-2 max-w-2xl text-ink-muted">{blurb}</p>
        </div>
        <Link
          to={more.to}
          className="inline-flex items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
        >
          {more.label}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      {children}
    </section>
  );
}

type HomeQuery = {
  data: Home | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
};

function ShelfBody({
  home,
  pick,
  notes,
}: {
  home: HomeQuery;
  pick: (data: Home) => ListingCard[];
  notes?: (data: Home) => Map<string, string | null>;
}) {
  if (home.isPending) return <ListingsGridSkeleton />;
  if (home.isError || !home.data) {
    return <QueryError what="these books" onRetry={() => home.refetch()} retrying={home.isFetching} />;
  }
  const listings = pick(home.data);
  if (!listings.length) return <p className="text-ink-muted">Nothing here yet. Check back soon.</p>;
  // No card is on the home page's first screen (the hero fills it at 390 and 1,280 px): all lazy.
  return <ListingCards listings={listings} notes={notes?.(home.data)} />;
}

/** Staff picks, trending and recently added: the home page's shelves. */
export function ListingShelves() {
  const home = trpc.catalogue.discovery.public.home.useQuery();
  return (
    <>
      <Shelf
        id="staff-picks"
        title="Staff picks"
        blurb="Books our team has read, loved and wants you to find."
        more={{ to: '/staff-picks', label: 'All staff picks' }}
      >
        <ShelfBody
          home={home}
          pick={(data) => data.staffPicks}
          notes={(data) => new Map(data.staffPicks.map((pick) => [pick.id, pick.note]))}
        />
      </Shelf>
      <div className="border-y border-line bg-paper-deep/50">
        <Shelf
          id="trending"
          title="Trending now"
          blurb="What readers are viewing, saving and buying this fortnight."
          more={{ to: '/trending', label: 'See what’s trending' }}
        >
          <ShelfBody home={home} pick={(data) => data.trending} />
        </Shelf>
      </div>
      <Shelf
        id="recently-added"
        title="Recently added"
        blurb="Fresh on the shelves from sellers across the UK."
        more={{ to: '/recently-added', label: 'See the newest books' }}
      >
        <ShelfBody home={home} pick={(data) => data.recent} />
      </Shelf>
    </>
  );
}

export function CharityShelf() {
  const charities = trpc.charities.featured.useQuery({ limit: 4 });
  return (
    <div className="border-t border-line bg-moss-soft/50">
      <Shelf
        id="charities"
        title="Shop for a good cause"
        blurb="Registered charities sell donated books on Reshelf. Every sale funds their work."
        more={{ to: '/charity', label: 'Reshelf for charities' }}
      >
        {charities.isPending ? (
          <div className="h-40" />
        ) : charities.isError ? null : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {charities.data.map((charity) => (
              <li key={charity.id}>
                <CharityCard charity={charity} />
              </li>
            ))}
          </ul>
        )}
      </Shelf>
    </div>
  );
}
