import { Link, useSearchParams } from 'react-router-dom';
import { SaveSearchButton } from '../../community/index.ts';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { ListingsBrowser, type ResultPage } from '../listings/ListingsBrowser.tsx';
import { readListingParams } from '../listings/listing-params.ts';
import { PopularCategories } from './PopularCategories.tsx';

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';

export function SearchPage() {
  const [search] = useSearchParams();
  const q = (search.get('q') ?? '').trim();
  // Advanced search's fields make a search without words.
  const advanced = Object.keys(readListingParams(search).advanced).length > 0;
  usePageMeta(
    q ? `“${q}”: search results` : advanced ? 'Advanced search results' : 'Search books',
    q
      ? `Second-hand copies of ${q} for sale on Reshelf, with buyer protection.`
      : 'Search pre-loved books by title, author or ISBN.',
  );

  // Nothing at all for these words (and no filters to blame): offer suggestions instead.
  // Decided while rendering: the server answers it as a redirect, before any HTML.
  const redirectFor = (page: ResultPage, info: { filtered: boolean }) =>
    q && page.total === 0 && page.page === 1 && !info.filtered
      ? `/search/not-found?q=${encodeURIComponent(q)}`
      : null;

  if (!q && !advanced) {
    return (
      <>
        <PageHeader
          title="Search books"
          description="Type a title, an author or an ISBN in the search box above. Spelling mistakes are fine: we'll work out what you meant."
        >
          <p className="mt-3">
            <Link to="/search/advanced" className={linkClass}>
              Advanced search
            </Link>{' '}
            <span className="text-ink-muted">
              by title, author, ISBN, publisher, year, format, first editions, signed copies or town
            </span>
          </p>
        </PageHeader>
        <PageBody>
          <PopularCategories />
        </PageBody>
      </>
    );
  }
  return (
    <>
      <PageHeader title={q ? <>Results for “{q}”</> : 'Advanced search results'}>
        <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2">
          <SaveSearchButton />
          <Link to={`/search/advanced?${search.toString()}`} className={`text-sm ${linkClass}`}>
            {advanced ? 'Change the advanced search' : 'Advanced search'}
          </Link>
        </div>
      </PageHeader>
      <PageBody>
        <ListingsBrowser mode="search" redirectFor={redirectFor} byBook />
      </PageBody>
    </>
  );
}
