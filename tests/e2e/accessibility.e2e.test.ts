/**
 * WCAG 2.2 AA over every page the app has (issue 35): one table of routes, each opened in
 * Chromium at 1,280 px and at 390 px, checked by axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa,
 * wcag22aa), searched for anything dragged (2.5.7: nothing may need dragging) and, at 390 px,
 * measured for target size (2.5.8). The file fails on any serious or critical axe violation, on
 * any draggable element and on any target under 24 × 24 CSS px without the spacing the criterion
 * allows, and prints the findings as a table (route × width × rule × nodes).
 *
 * The table is checked against the router itself (web/src/app/router.tsx): a route the app
 * defines without a row here, or a row for a route it no longer has, fails the first test, so
 * a new page cannot go unchecked. Rows are data: another page is one more line.
 *
 * The marketplace is the file's own (a fresh demo seed): the member pages open a draft and
 * the checkout, which other files would rather not find.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInViaApi } from '../support/auth.ts';
import { FAILING_IMPACTS, runAxe } from '../support/axe.ts';
import { VIEWPORTS } from '../support/browser.ts';
import { type OwnMarketplace, withOwnMarketplace } from '../support/server.ts';

let browser: Browser;
let marketplace: OwnMarketplace;
withOwnMarketplace((started) => ({ browser, marketplace } = started));

type Role = 'public' | 'member' | 'buyer' | 'appellant' | 'charity' | 'staff' | 'super';

/** Who each role signs in as (the demo accounts; README). */
const ROLE_EMAIL: Record<Exclude<Role, 'public'>, string> = {
  member: 'seller@reshelf.test',
  // Bought books in the demo data (demo-basket-orders.ts); given the demo password below.
  buyer: 'bookworm@reshelf.test',
  // Whose listing the demo data removed (demo-reports.ts): read from the database below.
  appellant: '',
  charity: 'charity@reshelf.test',
  staff: 'admin@reshelf.test',
  super: 'super@reshelf.test',
};

/** Real addresses from the demo data, read once from the database. */
interface Demo {
  listingSlug: string;
  workSlug: string;
  memberListingId: string;
  categorySlug: string;
  genreSlug: string;
  charitySlug: string;
  sellerId: string;
  purchaseId: string;
  saleId: string;
  threadId: string;
  month: string;
  removalId: string;
}

interface Row {
  /** The route as the router spells it. */
  route: string;
  role: Role;
  /** The address to open (the route itself unless it has parameters). */
  url?: (demo: Demo) => string;
}

/**
 * Every route of web/src/app/router.tsx, with who opens it and, for a route with parameters,
 * where. Signed-in routes are opened signed in (signed out they only redirect to /login).
 */
// biome-ignore format: one route a line reads best.
const TABLE: Row[] = [
  // Public (spec section 2).
  { route: '/', role: 'public' },
  { route: '/login', role: 'public' },
  { route: '/forgot-password', role: 'public' },
  { route: '/reset-password', role: 'public' },
  { route: '/complete-signup', role: 'public' },
  { route: '/email-confirmation', role: 'public' },
  { route: '/auth/confirm', role: 'public' },
  { route: '/terms', role: 'public' },
  { route: '/listings', role: 'public' },
  { route: '/search', role: 'public', url: () => '/search?q=austen' },
  { route: '/search/advanced', role: 'public' },
  { route: '/search/not-found', role: 'public' },
  { route: '/discover-sellers', role: 'public' },
  { route: '/trending', role: 'public' },
  { route: '/recently-added', role: 'public' },
  { route: '/staff-picks', role: 'public' },
  { route: '/listing/:slug', role: 'public', url: (d) => `/listing/${d.listingSlug}` },
  { route: '/book/:slug', role: 'public', url: (d) => `/book/${d.workSlug}` },
  { route: '/checkout/success', role: 'public' },
  { route: '/checkout/cancel', role: 'public' },
  { route: '/reshelf-app', role: 'public' },
  { route: '/pages/contact', role: 'public' },
  { route: '/pages/:slug', role: 'public', url: () => '/pages/accessibility-policy' },
  { route: '/help-centre', role: 'public' },
  { route: '/help-centre/faq', role: 'public' },
  { route: '/help-centre/buyer-protection', role: 'public' },
  { route: '/categories', role: 'public' },
  { route: '/c/:slug', role: 'public', url: (d) => `/c/${d.categorySlug}` },
  { route: '/g/:slug', role: 'public', url: (d) => `/g/${d.genreSlug}` },
  { route: '/charity', role: 'public' },
  { route: '/charity/signup', role: 'public' },
  { route: '/charity-signup-confirmation', role: 'public' },
  { route: '/charity/directory', role: 'public' },
  { route: '/charity/:slug', role: 'public', url: (d) => `/charity/${d.charitySlug}` },
  { route: '/seller/:sellerId', role: 'public', url: (d) => `/seller/${d.sellerId}` },
  { route: '/unsubscribe', role: 'public' },
  { route: '/basket', role: 'public' },
  { route: '/dev/mailbox', role: 'public' },
  { route: '/*', role: 'public', url: () => '/no-such-page' },

  // Signed in (the spec's list; contracts' SIGNED_IN_ROUTES).
  { route: '/email-verification', role: 'member' },
  { route: '/onboarding', role: 'member' },
  { route: '/onboarding/complete', role: 'member' },
  { route: '/social', role: 'member' },
  { route: '/checkout', role: 'member', url: (d) => `/checkout?listing=${d.listingSlug}` },
  { route: '/checkout/confirm', role: 'member' },
  { route: '/checkout/offer', role: 'member' },
  { route: '/checkout/basket', role: 'member' },
  { route: '/sell', role: 'member' },
  { route: '/sell/new', role: 'member' },
  { route: '/sell/:id', role: 'member', url: (d) => `/sell/${d.memberListingId}` },
  { route: '/sell/:id/:subpage', role: 'member', url: (d) => `/sell/${d.memberListingId}/edit` },
  { route: '/sell/confirm', role: 'member' },
  { route: '/sell/wizard', role: 'member' },
  { route: '/messages', role: 'member' },
  { route: '/messages/:threadId', role: 'member', url: (d) => `/messages/${d.threadId}` },
  { route: '/recommendations', role: 'member' },
  { route: '/account', role: 'member' },
  { route: '/account/settings', role: 'member' },
  { route: '/account/listings', role: 'member' },
  { route: '/account/wishlist', role: 'member' },
  { route: '/account/series', role: 'member' },
  { route: '/account/wants', role: 'member' },
  { route: '/account/following', role: 'member' },
  { route: '/account/saved-searches', role: 'member' },
  { route: '/account/reading-lists', role: 'member' },
  { route: '/account/notifications', role: 'member' },
  { route: '/account/offers', role: 'member' },
  { route: '/account/orders', role: 'buyer' },
  { route: '/account/orders/:orderId', role: 'buyer', url: (d) => `/account/orders/${d.purchaseId}` },
  { route: '/account/sales', role: 'member' },
  { route: '/account/sales/:orderId', role: 'member', url: (d) => `/account/sales/${d.saleId}` },
  { route: '/account/payouts', role: 'member' },
  { route: '/account/removals/:removalId', role: 'appellant', url: (d) => `/account/removals/${d.removalId}` },
  { route: '/account/analytics', role: 'member' },
  { route: '/account/reviews', role: 'member' },
  { route: '/account/payouts/statement/:month', role: 'member', url: (d) => `/account/payouts/statement/${d.month}` },
  // No year is filed in the demo data, so this is the page's "no copy for that year" state.
  { route: '/account/payouts/reporting/:year', role: 'member', url: () => '/account/payouts/reporting/2025' },
  { route: '/charity/sell', role: 'charity' },
  { route: '/charity/bulk-listing', role: 'charity' },
  { route: '/charity/dashboard', role: 'charity' },

  // Staff (web/src/staff/admin-pages.ts, web/src/app/staff-routes.tsx).
  { route: '/admin', role: 'staff' },
  { route: '/admin/charities', role: 'staff' },
  { route: '/admin/disputes', role: 'staff' },
  { route: '/admin/shipping-disputes', role: 'staff' },
  { route: '/admin/audit', role: 'staff' },
  { route: '/admin/emails', role: 'staff' },
  { route: '/admin/email-templates', role: 'staff' },
  { route: '/admin/settings', role: 'staff' },
  { route: '/admin/flags', role: 'staff' },
  { route: '/admin/staff-picks', role: 'staff' },
  { route: '/admin/exports', role: 'staff' },
  { route: '/admin/users', role: 'staff' },
  { route: '/admin/listings', role: 'staff' },
  { route: '/admin/orders', role: 'staff' },
  { route: '/admin/payments', role: 'staff' },
  { route: '/admin/payouts', role: 'staff' },
  { route: '/admin/payments/reconciliation', role: 'staff' },
  { route: '/admin/revenue', role: 'staff' },
  { route: '/admin/logs', role: 'staff' },
  { route: '/admin/refunds', role: 'staff' },
  { route: '/admin/trending-books', role: 'staff' },
  { route: '/admin/trending', role: 'staff' },
  { route: '/admin/analytics', role: 'staff' },
  { route: '/admin/books', role: 'staff' },
  { route: '/admin/launch-plan', role: 'staff' },
  { route: '/admin/categories', role: 'staff' },
  { route: '/admin/seo', role: 'staff' },
  { route: '/admin/accessibility', role: 'staff' },
  { route: '/admin/book-signings', role: 'staff' },
  { route: '/admin/reports', role: 'staff' },
  { route: '/admin/promotions', role: 'staff' },
  { route: '/admin/offers', role: 'staff' },
  { route: '/admin/covers-backfill', role: 'staff' },
  { route: '/admin/appeals', role: 'staff' },
  { route: '/admin/*', role: 'staff', url: () => '/admin/no-such-page' },
  { route: '/global-admin', role: 'super' },
  { route: '/global-admin/email-templates', role: 'super' },
];

/** What this file reads of a React Router route. */
interface RouteLike {
  path?: string;
  index?: boolean;
  children?: RouteLike[];
}

/**
 * The app's routes, from the module the app builds its router from. Imported by a computed
 * address so the type check of tests/ does not compile the web's JSX (Vitest runs it as the web).
 */
async function appRoutes(): Promise<RouteLike[]> {
  const router = new URL('../../web/src/app/router.tsx', import.meta.url).href;
  return ((await import(/* @vite-ignore */ router)) as { routes: RouteLike[] }).routes;
}

/** Every page route the router defines, spelled from the root (layout routes add no path). */
function routePaths(list: RouteLike[], parent = ''): string[] {
  return list.flatMap((route) => {
    const here = route.path
      ? route.path.startsWith('/')
        ? route.path
        : `${parent.replace(/\/$/, '')}/${route.path}`
      : parent;
    const own = route.index || (route.path && !route.children) ? [here || '/'] : [];
    return [...own, ...routePaths(route.children ?? [], here)];
  });
}

async function demoData(databaseUrl: string): Promise<Demo> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const one = async (what: string, sql: string, params: unknown[] = []): Promise<string> => {
      const { rows } = await db.query<{ v: string }>(sql, params);
      if (!rows[0]) throw new Error(`the demo data has no ${what}`);
      return String(rows[0].v);
    };
    const member = await one('member', 'select id as v from auth.users where email = $1', [
      ROLE_EMAIL.member,
    ]);
    const buyer = await one('buyer', 'select id as v from auth.users where email = $1', [ROLE_EMAIL.buyer]);
    // The demo buyer with orders and the seller whose listing was removed have no password
    // (catalogue-demo.ts): this marketplace's own copy gives them the demo accounts' one.
    const removalId = await one(
      'removal',
      'select id as v from public.moderation_removals order by created_at limit 1',
    );
    ROLE_EMAIL.appellant = await one(
      "removal's owner",
      'select u.email as v from public.moderation_removals r join auth.users u on u.id = r.owner_id where r.id = $1',
      [removalId],
    );
    await db.query(
      `update auth.users set encrypted_password = (select encrypted_password from auth.users where id = $1)
       where id = $2 or email = $3`,
      [member, buyer, ROLE_EMAIL.appellant],
    );
    return {
      listingSlug: await one(
        'active listing of another seller',
        `select slug as v from public.listings where status = 'active' and seller_id <> $1 and charity_id is null order by slug limit 1`,
        [member],
      ),
      // The book page with the most editions on sale: its editions list and copies table are full.
      workSlug: await one(
        'book with copies on sale',
        `select w.slug as v from public.works w join public.edition_search es on es.work_id = w.id
         where es.copies > 0 group by w.slug order by count(*) desc, sum(es.copies) desc, w.slug limit 1`,
      ),
      memberListingId: await one(
        "member's listing",
        `select id as v from public.listings where seller_id = $1 and status = 'active' order by slug limit 1`,
        [member],
      ),
      categorySlug: await one('category', 'select slug as v from public.categories order by slug limit 1'),
      genreSlug: await one('genre', 'select slug as v from public.genres order by slug limit 1'),
      charitySlug: await one(
        'approved charity',
        `select slug as v from public.charities where status = 'approved' order by slug limit 1`,
      ),
      sellerId: member,
      purchaseId: await one(
        "buyer's purchase",
        'select id as v from public.orders where buyer_id = $1 order by created_at desc limit 1',
        [buyer],
      ),
      saleId: await one(
        "member's sale",
        'select id as v from public.orders where seller_id = $1 order by created_at desc limit 1',
        [member],
      ),
      // The demo data has no conversation: the buyer asks about one of the member's books.
      threadId: await one(
        'conversation',
        `with thread as (
           insert into public.message_threads (buyer_id, seller_id, listing_id, last_message_at)
           select $2, $1, id, now() from public.listings
           where seller_id = $1 and status = 'active' order by slug limit 1
           returning id)
         insert into public.messages (thread_id, sender_id, body)
         select id, $2, 'Hello, is this copy still available? Is the spine creased?' from thread
         returning thread_id as v`,
        [member, buyer],
      ),
      month: await one('month', `select to_char(now(), 'YYYY-MM') as v`),
      removalId,
    };
  } finally {
    await db.end();
  }
}

/** A context for one role: the cookie choice made (the banner has a row of its own) and no welcome gift. */
async function contextFor(role: Role): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: marketplace.baseURL, viewport: VIEWPORTS.desktop });
  await context.addInitScript((signedIn) => {
    if (signedIn) localStorage.setItem('cookie-consent', 'declined');
    localStorage.setItem('has-visited', 'true');
  }, role !== 'public');
  if (role !== 'public') await signInViaApi(context, ROLE_EMAIL[role]);
  return context;
}

/** Waits until the app shows the address and nothing on it is still loading. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.documentElement;
      return (
        root.dataset.shownPath === window.location.pathname + window.location.search &&
        !document.querySelector('[data-stale], [aria-busy="true"]')
      );
    },
    undefined,
    { timeout: 20_000 },
  );
  await page.waitForLoadState('networkidle');
}

interface Finding {
  route: string;
  url: string;
  width: number;
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
}

/**
 * WCAG 2.2 2.5.8 (target size, minimum): every visible target at least 24 × 24 CSS px, or
 * spaced so that a 24 px circle on its centre meets no other target (nor another such circle).
 * Links inside a sentence are exempt (the inline exception); a control's label counts as part
 * of its target. The user-agent exception is not taken: a control the browser sizes is measured
 * like any other.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const SELECTOR =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="checkbox"], [role="radio"], [role="switch"], [role="tab"], [role="menuitem"], [role="option"], [tabindex]:not([tabindex="-1"])';
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      if (el.closest('[aria-hidden="true"], [inert]')) return false;
      // Visually hidden (sr-only: clipped to nothing) until focused, like the skip link.
      if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') return false;
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1;
    };
    const inSentence = (el: Element) => {
      if (getComputedStyle(el).display !== 'inline') return false;
      const block = el.parentElement;
      const text = (block?.textContent ?? '').replace(/\s+/g, ' ').trim();
      return text.length > (el.textContent ?? '').trim().length + 1;
    };
    const label = (el: Element) => {
      const name =
        el.getAttribute('aria-label') ?? (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
      const testId = el.getAttribute('data-testid');
      return `${el.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ''} "${name}"`;
    };
    const targets = [...document.querySelectorAll(SELECTOR)]
      .filter((el) => visible(el) && !inSentence(el))
      .map((el) => {
        // A control's label activates it too: the target is the control and its labels together
        // (a 16 px checkbox in a 32 px label row is a 32 px target).
        const rects = [el, ...((el as HTMLInputElement).labels ?? [])].map((part) =>
          part.getBoundingClientRect(),
        );
        const left = Math.min(...rects.map((r) => r.left));
        const top = Math.min(...rects.map((r) => r.top));
        const right = Math.max(...rects.map((r) => r.right));
        const bottom = Math.max(...rects.map((r) => r.bottom));
        return {
          el,
          r: { left: left + scrollX, top: top + scrollY, right: right + scrollX, bottom: bottom + scrollY },
          w: right - left,
          h: bottom - top,
        };
      });
    const small = targets.filter((t) => t.w < 24 - 0.5 || t.h < 24 - 0.5);
    const centre = (t: (typeof targets)[number]) => ({
      x: (t.r.left + t.r.right) / 2,
      y: (t.r.top + t.r.bottom) / 2,
    });
    const distanceToRect = (p: { x: number; y: number }, r: (typeof targets)[number]['r']) => {
      const dx = Math.max(r.left - p.x, 0, p.x - r.right);
      const dy = Math.max(r.top - p.y, 0, p.y - r.bottom);
      return Math.hypot(dx, dy);
    };
    const offenders: string[] = [];
    for (const t of small) {
      const c = centre(t);
      const crowded = targets.some((other) => {
        if (other === t || other.el.contains(t.el) || t.el.contains(other.el)) return false;
        const isSmall = small.includes(other);
        if (isSmall) {
          const o = centre(other);
          return Math.hypot(o.x - c.x, o.y - c.y) < 24 - 0.5;
        }
        return distanceToRect(c, other.r) < 12 - 0.5;
      });
      if (crowded) offenders.push(`${label(t.el)} ${Math.round(t.w)}×${Math.round(t.h)}`);
    }
    return offenders;
  });
}

function table(findings: Finding[]): string {
  const head = ['route', 'width', 'impact', 'rule', 'nodes', 'first targets'];
  const lines = findings.map((f) => [
    f.url,
    String(f.width),
    f.impact,
    f.rule,
    String(f.nodes),
    f.targets.join(' '),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [head, ...lines].map((l) => l.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')).join('\n');
}

let demo: Demo;
const findings: Finding[] = [];

beforeAll(async () => {
  demo = await demoData(marketplace.databaseUrl);
});

// Every finding, failing or not, for the person reading the run (the failures are also in the assertion).
afterAll(() => {
  process.stdout.write(
    findings.length > 0
      ? `Accessibility findings\n${table(findings)}\n`
      : `Accessibility findings: none on ${TABLE.length} routes at 1,280 and 390 px\n`,
  );
});

describe('accessibility of every route', () => {
  it('the table has a row for every route the app defines, and none for a route it lacks', async () => {
    const defined = new Set(routePaths(await appRoutes()));
    const rows = new Set(TABLE.map((row) => row.route));
    expect(defined.size).toBeGreaterThan(100);
    expect([...defined].filter((route) => !rows.has(route)).sort()).toEqual([]);
    expect([...rows].filter((route) => !defined.has(route)).sort()).toEqual([]);
    expect(TABLE.length).toBe(rows.size);
    // The accessibility statement says how many addresses this table checks: it must be this one.
    const statement = readFileSync(
      new URL('../../api/src/seed/pages/accessibility-policy.md', import.meta.url),
      'utf8',
    );
    expect(statement.match(/\((\d+) addresses,/)?.[1]).toBe(String(TABLE.length));
  });

  it('the target-size measure finds a crowded small target, and passes a spaced one or a link in a sentence', async () => {
    const context = await contextFor('public');
    const page = await context.newPage();
    await page.setContent(`
      <div style="display:flex;gap:2px"><button style="width:16px;height:16px;padding:0">a</button><button style="width:16px;height:16px;padding:0">b</button></div>
      <div style="margin-top:80px"><button style="width:16px;height:16px;padding:0">alone</button></div>
      <p style="margin-top:80px">Read <a href="/terms">the terms</a> before you buy.</p>
      <label style="display:flex;align-items:center;min-height:32px;margin-top:80px"><input type="checkbox" style="width:16px;height:16px;margin:0"> In a label row</label>
      <label style="display:flex;align-items:center;min-height:32px"><input type="checkbox" style="width:16px;height:16px;margin:0"> Another</label>
      <button style="width:48px;height:48px">big</button>`);
    expect(await smallTargets(page)).toEqual(['button "a" 16×16', 'button "b" 16×16']);
    await context.close();
  });

  const roles: Role[] = ['public', 'member', 'buyer', 'appellant', 'charity', 'staff', 'super'];
  it.each(roles)(
    '%s pages: no serious or critical axe violation and no small target, at 1,280 and 390 px',
    async (role) => {
      const context = await contextFor(role);
      const page = await context.newPage();
      const mine: Finding[] = [];
      try {
        for (const row of TABLE.filter((r) => r.role === role)) {
          const url = row.url?.(demo) ?? row.route;
          await page.setViewportSize(VIEWPORTS.desktop);
          await page.goto(url);
          await settle(page);
          for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
            if (viewport !== VIEWPORTS.desktop) {
              await page.setViewportSize(viewport);
              await settle(page);
            }
            for (const finding of await runAxe(page)) {
              mine.push({ route: row.route, url, width: viewport.width, ...finding });
            }
            // WCAG 2.5.7: nothing is done by dragging (photo order has buttons, carousels too).
            const dragged = await page.locator('[draggable="true"]').count();
            if (dragged > 0) {
              mine.push({
                route: row.route,
                url,
                width: viewport.width,
                rule: 'dragging-2.5.7',
                impact: 'serious',
                nodes: dragged,
                targets: [],
              });
            }
            if (viewport === VIEWPORTS.phone) {
              const small = await smallTargets(page);
              if (small.length > 0) {
                mine.push({
                  route: row.route,
                  url,
                  width: viewport.width,
                  rule: 'target-size-2.5.8',
                  impact: 'serious',
                  nodes: small.length,
                  targets: small.slice(0, 4),
                });
              }
            }
          }
        }
      } finally {
        findings.push(...mine);
        await context.close();
      }
      const failing = mine.filter((f) => FAILING_IMPACTS.has(f.impact));
      expect(failing.length, `serious or critical findings on ${role} pages:\n${table(failing)}`).toBe(0);
    },
    900_000,
  );
});
