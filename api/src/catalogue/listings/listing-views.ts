/** Turns a listing page's call into a buffered view (view-recorder.ts). */

import { visitorKey } from '../../platform/visitor.ts';
import type { Context } from '../../trpc.ts';
import type { ViewRecorder } from './view-recorder.ts';

/**
 * Records the view of the caller: a member by a hash of their id (one view a day wherever they
 * read from), a visitor by the salted hash of address and browser. Answers at once.
 */
export function recordView(ctx: Pick<Context, 'req' | 'secrets' | 'auth'>, listingId: string): void {
  const userId = ctx.auth.claims?.userId ?? null;
  const viewerKey = userId ? ctx.secrets.sign('visitor', `member|${userId}`).slice(0, 32) : visitorKey(ctx);
  const views: ViewRecorder = ctx.req.server.listingViews;
  views.record({ listingId, viewerKey, viewerId: userId, at: new Date() }, ctx.req.headers['user-agent']);
}
