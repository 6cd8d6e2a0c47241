/**
 * The whole API surface: the eight domains, the same names as the folders of `api/src` and
 * `web/src` (docs/architecture.md, "Domains"). Each domain composes its features' routers in its
 * own `<domain>.router.ts`; inside, a feature with more than one audience splits by audience
 * (`member` is what buyers, sellers and charities call, `staff` the staff's tools for the same
 * records, `public` what anyone may read). REST paths and operation ids are pinned in each
 * published procedure's meta, so they do not follow these names (decision 0039).
 */
import { accountDomainRouter } from './account/index.ts';
import { catalogueDomainRouter } from './catalogue/index.ts';
import { charitiesRouter } from './charities/index.ts';
import { commerceRouter } from './commerce/index.ts';
import { communityDomainRouter } from './community/index.ts';
import { platformRouter } from './platform/platform.router.ts';
import { sellingDomainRouter } from './selling/index.ts';
import { staffDomainRouter } from './staff/index.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  account: accountDomainRouter,
  catalogue: catalogueDomainRouter,
  selling: sellingDomainRouter,
  commerce: commerceRouter,
  community: communityDomainRouter,
  charities: charitiesRouter,
  staff: staffDomainRouter,
  platform: platformRouter,
});

export type AppRouter = typeof appRouter;
