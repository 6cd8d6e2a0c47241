/**
 * Server rendering of the public pages (docs/decisions/0041-server-rendered-public-pages.md).
 *
 * Built by `vite build --ssr` into web/dist-ssr and loaded by the BFF at run time (a dynamic
 * import by path, api/src/http/ssr.ts): the web never imports the API's code, the API hands in
 * a `call` that runs a procedure in-process (its caller), as an anonymous visitor, for the reads
 * that are the same for everyone; it refuses the rest (auth.me, a member's data), which render
 * as loading and are asked for by the browser with its session.
 *
 * A page's data comes from the same tRPC queries the browser would make: the page is rendered,
 * every query it started and that is still waiting is answered through `call` into a per-request
 * QueryClient, and it is rendered again until no new query appears (three rounds at most). The
 * final render streams (renderToPipeableStream), with the answers dehydrated into a JSON data
 * block (`type="application/json"`: data, never run, so the page's script CSP is untouched) that
 * the browser hydrates from (main.tsx).
 */
import type { AppRouter } from '@reshelf/api/router';
import { PRODUCT } from '@reshelf/contracts';
import { defaultShouldDehydrateQuery, dehydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { TRPCClientError, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { StrictMode } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  matchRoutes,
  type StaticHandlerContext,
  StaticRouterProvider,
} from 'react-router-dom';
import { AppProviders } from './app/providers.tsx';
import { createQueryClient } from './app/query-client.ts';
import { routes } from './app/router.tsx';
import {
  DEFAULT_DESCRIPTION,
  type PageHead,
  PageHeadContext,
  PageRedirectContext,
  PageStatusContext,
} from './lib/page-meta.ts';
import { SiteOriginContext } from './lib/site-origin.ts';
import { trpc } from './lib/trpc.ts';

/**
 * The public routes rendered on the server (the list); every other path (signed-in,
 * staff, sign-in forms, checkout returns) keeps the browser-rendered shell.
 */
export const SERVER_RENDERED_ROUTES = [
  '/',
  '/listings',
  '/search',
  '/search/not-found',
  '/listing/:slug',
  '/book/:slug',
  '/categories',
  '/c/:slug',
  '/g/:slug',
  '/trending',
  '/recently-added',
  '/staff-picks',
  '/discover-sellers',
  '/seller/:sellerId',
  '/charity',
  '/charity/directory',
  '/charity/:slug',
  '/pages/:slug',
  '/terms',
  '/help-centre',
  '/help-centre/faq',
] as const;

const PUBLIC_ROUTES = SERVER_RENDERED_ROUTES.map((path) => ({ path }));

/** Paths under /charity that are not a charity's profile. */
const CHARITY_PAGES = new Set(['sell', 'dashboard', 'bulk-listing', 'signup']);

/** Whether a path is one of the server-rendered public pages. */
export function isServerRendered(pathname: string): boolean {
  const matches = matchRoutes(PUBLIC_ROUTES, pathname);
  const match = matches?.[0];
  if (!match) return false;
  if (match.route.path === '/charity/:slug' && CHARITY_PAGES.has(match.params.slug ?? '')) return false;
  return true;
}

/**
 * Whether no page lives at a path: only the app's own catch-all (the not-found page, under the
 * root layout) matches it. The server renders that page too, so the answer carries 404. A
 * catch-all further down (the staff area's) stays with the shell, like the rest of that area.
 */
export function isUnknownPath(pathname: string): boolean {
  const matches = matchRoutes(routes, pathname) ?? [];
  return matches.length === 2 && matches[0]?.route.id === 'root' && matches[1]?.route.path === '*';
}

/**
 * The errors a page's query gets from the API that the page renders from (a listing that does
 * not exist, a malformed address): answered on the server as the browser would receive them
 * (`data.code`, `data.httpStatus`), so the page shows, and the browser hydrates, its not-found
 * state. Any other failure (a read left for the browser, signed-in only) stays loading.
 */
const PAGE_ERRORS: Record<string, number> = { NOT_FOUND: 404, BAD_REQUEST: 400 };

/** The error as the browser's tRPC client would hold it, or null when it is not a page error. */
function pageError(error: unknown): (Error & { data: { code: string; httpStatus: number } }) | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const httpStatus = PAGE_ERRORS[code];
  if (httpStatus === undefined) return null;
  // A plain object (its fields survive JSON), shaped as the client's TRPCClientError.
  return { name: 'TRPCClientError', message: (error as Error).message, data: { code, httpStatus } };
}

/** Runs a query procedure (dotted path) on the server; throws its error, or when it is not answered there. */
export type CallProcedure = (path: string, input: unknown) => Promise<unknown>;

export interface RenderRequest {
  /** The path and query string asked for. */
  url: string;
  /**
   * The site's public origin: canonical and Open Graph URLs, and the listing's in-page JSON-LD
   * (which the browser builds from its own origin, the same one).
   */
  siteOrigin: string;
  /** The built index.html: its head and the script/style tags of this deploy. */
  template: string;
  call: CallProcedure;
}

/** Something to stream the page's body into (a Node Writable). */
export interface PipeTarget {
  write(chunk: unknown): boolean;
  end(): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/**
 * The page sends the visitor elsewhere (`usePageRedirect`, decided while rendering with the
 * answers in): the server answers this before any HTML (302 and its Location).
 */
export interface RedirectedPage {
  status: 302;
  /** The path (and query) to go to, on this site. */
  redirect: string;
}

export interface RenderedPage {
  status: number;
  redirect?: undefined;
  /** Everything before the rendered app (the head with this page's title, meta and links). */
  before: string;
  /** The rendered app, streamed: ends the target when done. */
  pipe(target: PipeTarget): void;
  /** Everything after the app: the dehydrated answers and the rest of index.html. */
  after: string;
  /** The page's head as rendered (for tests and logs). */
  head: PageHead;
}

const MAX_ROUNDS = 3;
const ROOT_OPEN = '<div id="root">';
const ROOT_TAG = '<div id="root"></div>';
export const STATE_SCRIPT_ID = 'reshelf-ssr-state';

/** A tRPC client that is never called on the server: every answer is already in the cache. */
function offlineTrpcClient() {
  const link: TRPCLink<AppRouter> = () => () =>
    observable((observer) => {
      observer.error(TRPCClientError.from(new Error('The server render does not fetch.')));
    });
  return trpc.createClient({ links: [link] });
}

/** The procedure and input of a tRPC query key ([path parts, { input, type }]). */
function procedureOf(query: Query): { path: string; input: unknown } | null {
  const [parts, options] = query.queryKey as [unknown, { input?: unknown; type?: string } | undefined];
  if (!Array.isArray(parts) || parts.some((part) => typeof part !== 'string')) return null;
  if (options?.type !== 'query') return null;
  return { path: parts.join('.'), input: options.input };
}

/** Renders once (to a string, thrown away) and answers every query it started that still waits. */
async function fillQueries(
  render: () => string,
  queryClient: QueryClient,
  call: CallProcedure,
  tried: Set<string>,
): Promise<boolean> {
  render();
  const waiting = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.status === 'pending' && !tried.has(query.queryHash))
    .filter((query) => (query.options as { enabled?: unknown }).enabled !== false);
  if (waiting.length === 0) return false;
  await Promise.all(
    waiting.map(async (query) => {
      tried.add(query.queryHash);
      const procedure = procedureOf(query);
      if (!procedure) return;
      try {
        const data = await call(procedure.path, procedure.input);
        // As the browser would receive it over HTTP (JSON, no transformer).
        queryClient.setQueryData(query.queryKey, JSON.parse(JSON.stringify(data ?? null)));
      } catch (thrown) {
        const error = pageError(thrown);
        // Not found (or a malformed address): the page renders its not-found state from it.
        if (error) {
          query.setState({
            status: 'error',
            fetchStatus: 'idle',
            error,
            errorUpdatedAt: Date.now(),
            errorUpdateCount: 1,
            fetchFailureCount: 1,
            fetchFailureReason: error,
          });
        }
        // Anything else is not answered here (signed-in only, …): the browser asks for it
        // itself, and both render it as still loading.
      }
    }),
  );
  return true;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON that can sit inside a <script> element. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** A redirect's target as a path on this site (an absolute URL elsewhere is refused). */
function sitePath(to: string, siteOrigin: string): string {
  const target = new URL(to, siteOrigin);
  if (target.origin !== new URL(siteOrigin).origin) throw new Error(`A page redirected off the site: ${to}`);
  return `${target.pathname}${target.search}`;
}

/** The canonical path: search and the listings keep their query (filters make the page). */
function canonicalPath(url: URL): string {
  if (url.pathname === '/search' || url.pathname === '/listings') return `${url.pathname}${url.search}`;
  return url.pathname;
}

function headTags(head: PageHead, canonical: string): string {
  const tags = [
    `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
    `<meta property="og:site_name" content="${PRODUCT.name}" />`,
    `<meta property="og:type" content="${escapeHtml(head.type)}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(canonical)}" />`,
    `<meta property="og:locale" content="en_GB" />`,
  ];
  if (head.image) tags.push(`<meta property="og:image" content="${escapeHtml(head.image)}" />`);
  // The page's largest picture, fetched with the page's own resources rather than after them
  // (the listing's first photo: decision 0063); the same srcset and sizes as its <source>.
  if (head.preloadImage) {
    const { srcset, sizes, type } = head.preloadImage;
    tags.push(
      `<link rel="preload" as="image" imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(sizes)}" type="${escapeHtml(type)}" fetchpriority="high" />`,
    );
  }
  return tags.join('');
}

/** The template with this page's title, description and extra head tags. */
function pageHtml(template: string, head: PageHead, extra: string): { before: string; after: string } {
  let html = template.replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  html = html.replace(
    /<meta\s+name="description"[\s\S]*?\/?>/,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  );
  html = html.replace('</head>', `${extra}</head>`);
  const at = html.indexOf(ROOT_TAG);
  if (at < 0) throw new Error('index.html has no empty <div id="root"></div> to render into.');
  return { before: html.slice(0, at + ROOT_OPEN.length), after: html.slice(at + ROOT_OPEN.length) };
}

/**
 * The page for a public URL, or null when the path is not server-rendered (the caller serves
 * the shell). Throws when rendering fails before anything is sent: the caller serves the shell.
 */
export async function render(request: RenderRequest): Promise<RenderedPage | RedirectedPage | null> {
  const url = new URL(request.url, request.siteOrigin);
  if (!isServerRendered(url.pathname) && !isUnknownPath(url.pathname)) return null;

  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) return null;
  const staticContext: StaticHandlerContext = context;
  const router = createStaticRouter(handler.dataRoutes, staticContext);

  // Kept only for this request: no garbage-collection timers (gcTime Infinity schedules none),
  // cleared when the page has been sent.
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    // A not-found answer (set below) is what the page renders from, not a query to ask again.
    queries: {
      ...queryClient.getDefaultOptions().queries,
      gcTime: Number.POSITIVE_INFINITY,
      retryOnMount: false,
    },
  });
  const trpcClient = offlineTrpcClient();
  const collector: { current: PageHead | null } = { current: null };
  // The status the page asks for (the not-found page: 404), as the final render gives it.
  const status = { current: staticContext.statusCode };
  // Where the page sends the visitor instead (the final render's word), if anywhere.
  const redirect: { current: string | null } = { current: null };
  const tree = () => (
    <StrictMode>
      <SiteOriginContext.Provider value={request.siteOrigin}>
        <PageHeadContext.Provider value={collector}>
          <PageStatusContext.Provider value={status}>
            <PageRedirectContext.Provider value={redirect}>
              <AppProviders queryClient={queryClient} trpcClient={trpcClient}>
                <StaticRouterProvider router={router} context={staticContext} hydrate={false} />
              </AppProviders>
            </PageRedirectContext.Provider>
          </PageStatusContext.Provider>
        </PageHeadContext.Provider>
      </SiteOriginContext.Provider>
    </StrictMode>
  );
  const renderRound = () => {
    collector.current = null;
    status.current = staticContext.statusCode;
    redirect.current = null;
    return renderToString(tree());
  };

  const tried = new Set<string>();
  let settled = false;
  for (let round = 0; round < MAX_ROUNDS && !settled; round += 1) {
    settled = !(await fillQueries(renderRound, queryClient, request.call, tried));
  }
  // The head and status as the final render gives them (the answers all in): the last
  // round's, when it started no new query.
  if (!settled) renderRound();
  // The page says it is not the one to show: answer the redirect, nothing rendered is sent.
  if (redirect.current !== null) {
    queryClient.clear();
    return { status: 302, redirect: sitePath(redirect.current, request.siteOrigin) };
  }
  const head: PageHead = collector.current ?? {
    title: `${PRODUCT.name} · Pre-loved books, bought and sold`,
    description: DEFAULT_DESCRIPTION,
    type: 'website',
  };
  if (head.image) head.image = new URL(head.image, request.siteOrigin).href;

  const canonical = new URL(canonicalPath(url), request.siteOrigin).href;
  // The listing's schema.org Book/Offer JSON-LD is in the page itself (ListingPage.tsx).
  const { before, after } = pageHtml(request.template, head, headTags(head, canonical));
  // The answers, and the not-found ones (the page was rendered from them: so is the browser's).
  // Nothing fetches on the server: the only errors in this cache are those fillQueries set.
  const state = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === 'error',
  });
  // The site's origin goes with them: the browser renders the page's absolute links (the
  // listing's JSON-LD) from the origin the server used, whatever address it was opened at.
  const stateScript = `<script type="application/json" id="${STATE_SCRIPT_ID}" data-site-origin="${escapeHtml(request.siteOrigin)}">${scriptJson(state)}</script>`;
  // The data block goes right after the root element: parsed before the module script runs.
  const closeRoot = after.indexOf('</div>');
  const afterWithState = `${after.slice(0, closeRoot + '</div>'.length)}${stateScript}${after.slice(closeRoot + '</div>'.length)}`;

  return await new Promise<RenderedPage>((resolve, reject) => {
    const stream = renderToPipeableStream(tree(), {
      onShellReady() {
        resolve({
          status: status.current,
          before,
          after: afterWithState,
          head,
          pipe: (target) => {
            target.on('close', () => queryClient.clear());
            stream.pipe(target as never);
          },
        });
      },
      onShellError: reject,
      onError(error) {
        // After the shell: the browser renders that part again (React's client fallback).
        if (typeof console !== 'undefined') console.error('[ssr] render error', error);
      },
    });
  });
}
