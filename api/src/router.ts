/** The whole API surface: a pure index of feature routers. */
import { accountRouter } from './features/account/account.router.ts';
import { adminRouter } from './features/admin/admin.router.ts';
import { authRouter } from './features/auth/auth.router.ts';
import { catalogueRouter } from './features/catalogue/catalogue.router.ts';
import { devRouter } from './features/dev/dev.router.ts';
import { globalAdminRouter } from './features/global-admin/global-admin.router.ts';
import { router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  account: accountRouter,
  catalogue: catalogueRouter,
  admin: adminRouter,
  globalAdmin: globalAdminRouter,
  dev: devRouter,
});

export type AppRouter = typeof appRouter;
