import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTE_PATHS } from '../app/staff-routes.tsx';
import { ADMIN_HEADER_PAGES, ADMIN_HOME, ADMIN_PAGES, ADMIN_SIDEBAR_PAGES } from './admin-pages.ts';

const listed = new Set(ADMIN_PAGES.flatMap((page) => [page.path, ...(page.aliases ?? [])]));

describe('the staff pages list', () => {
  it('has every staff route, so the sidebar or the command palette finds each page', () => {
    const missing = ADMIN_ROUTE_PATHS.map((path) => `/admin/${path}`).filter((path) => !listed.has(path));
    expect(missing).toEqual([]);
  });

  it('lists only pages that have a route, each once', () => {
    const routed = new Set([ADMIN_HOME, ...ADMIN_ROUTE_PATHS.map((path) => `/admin/${path}`)]);
    expect([...listed].filter((path) => !routed.has(path))).toEqual([]);
    expect(new Set(ADMIN_PAGES.map((page) => page.path)).size).toBe(ADMIN_PAGES.length);
  });

  it('keeps the spec’s sidebar links in the spec’s order, with Charities, Orders, Payments and Logs', () => {
    const spec = [
      'dashboard',
      'users',
      'listings',
      'staff-picks',
      'trending-books',
      'offers',
      'reports',
      'disputes',
      'shipping-disputes',
      'refunds',
      'promotions',
      'flags',
      'categories',
      'seo',
      'email-templates',
      'exports',
      'audit',
      'accessibility',
      'covers-backfill',
    ];
    const sidebar = ADMIN_SIDEBAR_PAGES.map((page) =>
      page.path === ADMIN_HOME ? 'dashboard' : page.path.slice('/admin/'.length),
    );
    expect(sidebar.filter((path) => spec.includes(path))).toEqual(spec);
    expect(sidebar.filter((path) => !spec.includes(path))).toEqual([
      'charities',
      'orders',
      'payments',
      // Issue 24: money out to sellers.
      'payouts',
      'logs',
    ]);
    expect(ADMIN_HEADER_PAGES.map((page) => page.label)).toEqual(['Analytics', 'Revenue']);
  });
});
