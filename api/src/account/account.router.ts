/** The account domain's procedures: signing in, the member's own account, API tokens, notifications, reading lists. */
import { router } from '../trpc.ts';
import { apiTokensRouter } from './api-tokens/api-tokens.router.ts';
import { authRouter } from './auth/auth.router.ts';
import { accountRouter } from './member/account.router.ts';
import { notificationsRouter } from './notifications/notifications.router.ts';
import { readingListsRouter } from './reading-lists/reading-lists.router.ts';

export const accountDomainRouter = router({
  auth: authRouter,
  member: accountRouter,
  apiTokens: apiTokensRouter,
  notifications: notificationsRouter,
  readingLists: readingListsRouter,
});
