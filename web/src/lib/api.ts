/**
 * Where the API lives. The one place that decides it: the web build talks to its own origin
 * (the dev server proxies API paths), while the native shell is built with VITE_API_ORIGIN.
 */
export function apiOrigin(): string {
  const configured = import.meta.env.VITE_API_ORIGIN?.trim() ?? '';
  return configured.replace(/\/+$/, '');
}

/** An absolute or same-origin URL for an API path such as "/trpc" or "/storage/covers/x.jpg". */
export function apiUrl(path: string): string {
  return `${apiOrigin()}${path.startsWith('/') ? path : `/${path}`}`;
}
