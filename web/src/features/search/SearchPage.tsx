import type { ListingPage } from '@reshelf/contracts';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { ListingsBrowser } from '../catalogue/ListingsBrowser.tsx';
import { PopularCategories } from './PopularCategories.tsx';

export function SearchPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const q = (search.get('q') ?? '').trim();
  usePageMeta(
    q ? `“${q}”: search results` : 'Search books',
    q
      ? `Second-hand copies of ${q} for sale on Reshelf, with buyer protection.`
      : 'Search pre-loved books by title, author or ISBN.',
  );

  // Nothing at all for these words (and no filters to blame): offer suggestions instead.
  const onResult = useCallback(
    (page: ListingPage, info: { filtered: boolean }) => {
      if (page.total === 0 && page.page === 1 && !info.filtered) {
        navigate(`/search/not-found?q=${encodeURIComponent(q)}`, { replace: true });
      }
    },
    [navigate, q],
  );

  if (!q) {
    return (
      <>
        <PageHeader
          title="Search books"
          description="Type a title, an author or an ISBN in the search box above. Spelling mistakes are fine: we'll work out what you meant."
        />
        <PageBody>
          <PopularCategories />
        </PageBody>
      </>
    );
  }
  return (
    <>
      <PageHeader title={<>Results for “{q}”</>} />
      <PageBody>
        <ListingsBrowser mode="search" onResult={onResult} />
      </PageBody>
    </>
  );
}
