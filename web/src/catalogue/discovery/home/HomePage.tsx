import { RecommendedShelf } from '../../../community/index.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { CategorySection } from './CategorySection.tsx';
import { HomeHero } from './HomeHero.tsx';
import { CharityShelf, ListingShelves } from './HomeSections.tsx';
import { HowItWorks } from './HowItWorks.tsx';

export const HOME_TITLE = 'Pre-loved books, bought and sold';
export const HOME_DESCRIPTION =
  'Buy second-hand books from readers and charities across the UK, or sell yours in under a minute. Buyer protection on every order.';

export function HomePage() {
  usePageMeta(HOME_TITLE, HOME_DESCRIPTION);
  return (
    <>
      <HomeHero />
      <RecommendedShelf />
      <ListingShelves />
      <CategorySection />
      <CharityShelf />
      <HowItWorks />
    </>
  );
}
