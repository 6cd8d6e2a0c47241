import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { ListingsBrowser } from './ListingsBrowser.tsx';

export function ListingsPage() {
  usePageMeta(
    'Browse second-hand books',
    'Browse pre-loved books for sale across the UK: filter by category, genre, condition, price and charity sellers.',
  );
  return (
    <>
      <PageHeader
        title="Browse books"
        description="Every pre-loved book for sale on Reshelf, from readers and charity shops across the UK."
      />
      <PageBody>
        <ListingsBrowser byBook />
      </PageBody>
    </>
  );
}
