import { countOf } from '@reshelf/contracts';
import { BadgeCheck, Gift, MapPin, PackageOpen, Search, Undo2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { ListingsBrowser } from '../catalogue/index.ts';
import { BuyMoreFromSeller } from '../commerce/index.ts';
import {
  CharityRatingSummary,
  CharityReviewsSection,
  FollowButton,
  ReportCharity,
} from '../community/index.ts';
import { NotFoundContent } from '../components/not-found/NotFoundContent.tsx';
import { PageBody, PageHeader } from '../components/PageHeader.tsx';
import { QueryError } from '../components/QueryError.tsx';
import { Button } from '../components/ui/button.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { isNotFound } from '../lib/errors.ts';
import { usePageMeta } from '../lib/page-meta.ts';
import { trpc } from '../lib/trpc.ts';
import { CharityCard } from './CharityCard.tsx';

const REASONS = [
  {
    icon: PackageOpen,
    title: 'List in bulk',
    text: 'Scan a box of donations and list them together, with condition and price for each.',
  },
  {
    icon: Gift,
    title: 'Track Gift Aid',
    text: 'Record a donor reference for each book and export proceeds per donor for Retail Gift Aid.',
  },
  {
    icon: Undo2,
    title: 'Trusted by buyers',
    text: 'Charities sell as traders, so buyers get 14 days to return a book. It builds confidence.',
  },
] as const;

export function CharityLandingPage() {
  usePageMeta(
    'Reshelf for charities',
    'Registered charities sell donated books on Reshelf to readers across the UK, with bulk listing and Gift Aid records.',
  );
  const featured = trpc.charities.featured.useQuery({ limit: 6 });
  return (
    <>
      <section className="border-b border-line bg-moss-soft/60">
        <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-14 sm:px-6 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] md:py-20 lg:px-8">
          <div>
            <p className="text-sm font-semibold tracking-widest text-moss uppercase">Reshelf for charities</p>
            <h1 className="mt-4 text-4xl font-semibold sm:text-5xl">
              Turn donated books into funds for your cause.
            </h1>
            <p className="mt-5 max-w-xl text-lg text-ink-muted">
              Charity shops hold some of the best second-hand books in the country. Reshelf puts them in front
              of readers everywhere, not only those who walk past your door.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild variant="brand" size="lg">
                <Link to="/charity/signup">Register your charity</Link>
              </Button>
              <Button asChild variant="outline" size="lg">
                <Link to="/charity/directory">
                  <Search aria-hidden="true" />
                  Find a charity
                </Link>
              </Button>
            </div>
          </div>
          <ul className="flex flex-col gap-4 self-center">
            {REASONS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-3 rounded-xl border border-line bg-paper p-4 shadow-card">
                <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-moss" />
                <span>
                  <span className="block font-semibold">{title}</span>
                  <span className="text-sm text-ink-muted">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <PageBody>
        <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-3xl font-semibold">Charities selling on Reshelf</h2>
          <Link
            to="/charity/directory"
            className="font-semibold text-brand underline-offset-4 hover:underline"
          >
            See them all
          </Link>
        </div>
        {featured.isPending ? (
          <Skeleton className="h-40 rounded-xl" />
        ) : featured.isError ? (
          <QueryError
            what="the charities"
            onRetry={() => featured.refetch()}
            retrying={featured.isFetching}
          />
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {featured.data.map((charity) => (
              <li key={charity.id}>
                <CharityCard charity={charity} />
              </li>
            ))}
          </ul>
        )}
        <div className="mt-10 flex flex-col items-start gap-3 rounded-xl bg-paper-deep p-6">
          <h2 className="text-2xl font-semibold">Buying from a charity</h2>
          <p className="max-w-3xl text-ink-soft">
            Every charity on Reshelf is checked against its registered number before it can sell. When you buy
            from one, the money for the book goes to the charity, and you can return it within 14 days of
            delivery.
          </p>
          <Button asChild variant="outline">
            <Link to="/listings?charity=1">Browse charity books</Link>
          </Button>
        </div>
      </PageBody>
    </>
  );
}

const fieldClass =
  'h-11 w-full rounded-md border border-line bg-white px-3 text-ink shadow-sm focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand';

export function CharityDirectoryPage() {
  usePageMeta('Charity directory', 'Find a charity selling second-hand books on Reshelf, by name or town.');
  const [search, setSearch] = useSearchParams();
  const id = useId();
  const q = (search.get('q') ?? '').slice(0, 100);
  const town = search.get('town') ?? '';
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const [name, setName] = useState(q);
  const directory = trpc.charities.directory.useQuery({
    q: q || undefined,
    town: town || undefined,
    page: Math.min(page, 1000),
    pageSize: 24,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(search);
    if (name.trim()) next.set('q', name.trim());
    else next.delete('q');
    next.delete('page');
    setSearch(next);
  };

  return (
    <>
      <PageHeader
        title="Charity directory"
        description="Every registered charity selling books on Reshelf. Search by name or pick a town."
        crumbs={[{ to: '/charity', label: 'Charities' }]}
      />
      <PageBody>
        <search>
          <form
            onSubmit={submit}
            className="mb-8 grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end"
          >
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-name`} className="text-sm font-semibold">
                Charity name
              </label>
              <input
                id={`${id}-name`}
                name="q"
                maxLength={100}
                className={fieldClass}
                value={name}
                placeholder="For example, hospice"
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-town`} className="text-sm font-semibold">
                Town
              </label>
              <select
                id={`${id}-town`}
                className={fieldClass}
                value={town}
                onChange={(event) => {
                  const next = new URLSearchParams(search);
                  if (event.target.value) next.set('town', event.target.value);
                  else next.delete('town');
                  next.delete('page');
                  setSearch(next);
                }}
              >
                <option value="">Anywhere</option>
                {directory.data?.towns.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" variant="brand" size="lg" className="h-11">
              <Search aria-hidden="true" />
              Search
            </Button>
          </form>
        </search>

        {directory.isPending ? (
          <Skeleton className="h-40 rounded-xl" />
        ) : directory.isError ? (
          <QueryError
            what="the directory"
            onRetry={() => directory.refetch()}
            retrying={directory.isFetching}
          />
        ) : directory.data.items.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line p-6 text-ink-muted">
            No charities match{q ? ` “${q}”` : ''}
            {town ? ` in ${town}` : ''}. Try another name or town.
          </p>
        ) : (
          <>
            <p className="mb-4 text-sm text-ink-muted" aria-live="polite">
              {countOf(directory.data.total, 'charity', 'charities')}
            </p>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="charity-list">
              {directory.data.items.map((charity) => (
                <li key={charity.id}>
                  <CharityCard charity={charity} />
                </li>
              ))}
            </ul>
          </>
        )}
      </PageBody>
    </>
  );
}

export function CharityProfilePage() {
  const { slug = '' } = useParams();
  const charity = trpc.charities.bySlug.useQuery(
    { slug },
    { retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  const data = charity.data;
  const tiers = trpc.commerce.basket.public.tiers.useQuery({ charitySlug: slug }, { enabled: Boolean(data) });
  usePageMeta(
    data ? `${data.name}: books for sale` : charity.isError ? 'Charity not found' : 'Charity',
    data
      ? `Buy second-hand books from ${data.name}${data.town ? ` in ${data.town}` : ''} and support their work.`
      : undefined,
  );
  if (charity.isError && isNotFound(charity.error)) return <NotFoundContent />;
  return (
    <>
      <PageHeader
        title={data?.name ?? '\u00a0'}
        crumbs={[
          { to: '/charity', label: 'Charities' },
          { to: '/charity/directory', label: 'Directory' },
        ]}
        description={
          data ? (
            <span className="flex flex-col gap-3">
              <span className="flex flex-wrap items-center gap-x-4 gap-y-1 text-base">
                {data.town ? (
                  <span className="inline-flex items-center gap-1">
                    <MapPin aria-hidden="true" className="size-4" />
                    {data.town}
                  </span>
                ) : null}
                <span className="inline-flex items-center gap-1 text-moss" data-testid="charity-number">
                  <BadgeCheck aria-hidden="true" className="size-4" />
                  Registered charity {data.registeredNumber}
                </span>
                {data.website ? (
                  <a
                    href={data.website}
                    rel="noopener noreferrer external"
                    className="font-semibold text-brand hover:underline"
                  >
                    Website
                  </a>
                ) : null}
              </span>
              <CharityRatingSummary slug={data.slug} />
              {data.description ? <span className="text-base text-ink-soft">{data.description}</span> : null}
            </span>
          ) : undefined
        }
      >
        {data ? (
          <FollowButton
            target={{ kind: 'charity', charitySlug: data.slug }}
            name={data.name}
            className="mt-4"
          />
        ) : null}
        {data ? (
          <div className="mt-3">
            <ReportCharity charityId={data.id} name={data.name} />
          </div>
        ) : null}
      </PageHeader>
      <PageBody>
        {charity.isError ? (
          <QueryError what="this charity" onRetry={() => charity.refetch()} retrying={charity.isFetching} />
        ) : (
          <>
            {data && tiers.data ? (
              <BuyMoreFromSeller name={data.name} tiers={tiers.data} activeListings={data.activeListings} />
            ) : null}
            {/* Books first; the reviews after them (the header's rating line links down to them). */}
            <ListingsBrowser
              fixed={{ charity: slug }}
              empty={<p>This charity has no books for sale right now.</p>}
            />
            {data ? <CharityReviewsSection slug={slug} name={data.name} /> : null}
          </>
        )}
      </PageBody>
    </>
  );
}
