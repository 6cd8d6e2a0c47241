/** What the site as a whole offers: feature flags, the realtime stream, static pages, contact, unsubscribe, and the dev mailbox. */
import { router } from '../trpc.ts';
import { contactRouter } from './contact/contact.router.ts';
import { devRouter } from './dev/dev.router.ts';
import { flagsRouter } from './flags/flags.router.ts';
import { pagesRouter } from './pages/pages.router.ts';
import { realtimeRouter } from './realtime/realtime.router.ts';
import { unsubscribeRouter } from './unsubscribe/unsubscribe.router.ts';

export const platformRouter = router({
  flags: flagsRouter,
  realtime: realtimeRouter,
  pages: pagesRouter,
  contact: contactRouter,
  unsubscribe: unsubscribeRouter,
  dev: devRouter,
});
