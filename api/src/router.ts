/** The whole API surface: a pure index of feature routers. */
import { catalogueRouter } from './features/catalogue/catalogue.router.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  catalogue: catalogueRouter,
});

export type AppRouter = typeof appRouter;
