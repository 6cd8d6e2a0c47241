/**
 * Which addresses are the API's (and the probes', files' and webhooks') rather than the web's
 * pages: the BFF serves the web (or its server-rendered page) for every other GET, and load
 * shedding answers a person's browser asking for a page with a page. One list, read by both.
 */
export const API_PREFIXES = ['/trpc', '/api', '/healthz', '/readyz', '/storage', '/payments', '/sitemaps'];

/** The path of a request's URL, without its query. */
export function pathOf(url: string): string {
  return url.split('?', 1)[0] ?? url;
}

/** Whether a request's URL (with or without its query) is the API's, not a page's. */
export function isApiPath(url: string): boolean {
  const path = pathOf(url);
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
