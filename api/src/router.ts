/** The whole API surface: a pure index of feature routers. */
import { catalogueRouter } from './features/catalogue/catalogue.router.ts';
import { charitiesRouter } from './features/charities/charities.router.ts';
import { contactRouter } from './features/contact/contact.router.ts';
import { discoveryRouter } from './features/discovery/discovery.router.ts';
import { listingsRouter } from './features/listings/listings.router.ts';
import { pagesRouter } from './features/pages/pages.router.ts';
import { sellersRouter } from './features/sellers/sellers.router.ts';
import { unsubscribeRouter } from './features/unsubscribe/unsubscribe.router.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  catalogue: catalogueRouter,
  listings: listingsRouter,
  discovery: discoveryRouter,
  charities: charitiesRouter,
  sellers: sellersRouter,
  pages: pagesRouter,
  contact: contactRouter,
  unsubscribe: unsubscribeRouter,
});

export type AppRouter = typeof appRouter;
