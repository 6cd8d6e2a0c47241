/**
 * Listing views through the real app: the call answers before the view is written (it waits in
 * memory until a flush), bots are not counted, one view per member or visitor per listing per
 * day, and a member's view names them (for their recommendations).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser, WEB } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api } from '../../testing/client.ts';
import { isBot } from './view-recorder.ts';

let t: TestApp;
let sellerId: string;
let member: TestUser;
const db = () => t.database.handle.db;
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp();
  sellerId = await createPerson(db(), 'seller@views.test');
  member = await createUser(db(), t.services.identity, 'reader@views.test');
});

afterAll(async () => {
  await t.close();
});

async function listing(status: 'active' | 'draft' = 'active') {
  const bookId = await createBook(db(), { title: 'Viewed', authors: ['V. Iewer'] });
  return createListing(db(), { sellerId, bookId, status });
}

function view(listingId: string, caller: { token?: string; agent?: string } = {}) {
  return api(t.app, {
    token: caller.token ?? null,
    headers: { ...WEB, 'user-agent': caller.agent ?? BROWSER },
  }).catalogue.listings.recordView.mutate({ listingId });
}

async function viewsOf(listingId: string) {
  return db()
    .selectFrom('listing_views')
    .select(['viewer_key', 'viewer_id'])
    .where('listing_id', '=', listingId)
    .execute();
}

describe('listing views', () => {
  it('are buffered: written by the next flush, not by the call', async () => {
    const { id } = await listing();
    expect(await view(id)).toEqual({ recorded: true });
    expect(await viewsOf(id)).toHaveLength(0);
    expect(t.app.listingViews.waiting).toBeGreaterThan(0);
    await t.app.listingViews.flush();
    expect(await viewsOf(id)).toHaveLength(1);
  });

  it('count a member once a day whatever browser they use, and name them', async () => {
    const { id } = await listing();
    await view(id, { token: member.accessToken });
    await view(id, { token: member.accessToken, agent: `${BROWSER} Edge/1` });
    await t.app.listingViews.flush();
    await view(id, { token: member.accessToken });
    await t.app.listingViews.flush();
    expect(await viewsOf(id)).toEqual([
      { viewer_key: expect.stringMatching(/^[\w-]{32}$/), viewer_id: member.id },
    ]);
  });

  it('count each visitor once a day, anonymously', async () => {
    const { id } = await listing();
    for (let i = 0; i < 3; i++) await view(id);
    await view(id, { agent: 'Mozilla/5.0 (iPhone) Mobile Safari/604.1' });
    await t.app.listingViews.flush();
    const views = await viewsOf(id);
    expect(views).toHaveLength(2);
    expect(views.every((row) => row.viewer_id === null)).toBe(true);
  });

  it('leave out bots, scripts and drafts', async () => {
    const { id } = await listing();
    await view(id, { agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await view(id, { agent: 'curl/8.5.0' });
    await view(id, { agent: '' });
    const draft = await listing('draft');
    await view(draft.id);
    await t.app.listingViews.flush();
    expect(await viewsOf(id)).toHaveLength(0);
    expect(await viewsOf(draft.id)).toHaveLength(0);
  });

  it('tell a reader from a bot', () => {
    expect(isBot(BROWSER)).toBe(false);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0 Safari/537.36')).toBe(false);
    expect(isBot('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('python-requests/2.31')).toBe(true);
    expect(isBot(undefined)).toBe(true);
  });

  it('refuse a listing id that is not one', async () => {
    await expect(view('not-a-uuid')).rejects.toThrow('Listing must be a listing id');
  });
});
