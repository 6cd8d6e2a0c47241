/**
 * `next`: where a person goes once a detour is over (signing in, signing up, confirming their
 * address, onboarding). It arrives from the address bar or in an emailed link, so it is
 * untrusted: only a same-site path is accepted — one leading slash, never `//` or `/\` (which
 * browsers read as another host), never an absolute URL or a scheme, no control characters.
 * The web client and the API both read `next` through this one helper.
 */
export const LOGIN_PATH = '/login';
/** The longest `next` kept; longer is not a path of ours. */
export const NEXT_PATH_MAX = 2000;
const PLACEHOLDER_ORIGIN = 'https://reshelf.invalid';

/** A path browsers read as this site's: one leading slash, not `//` or `/\` (another host). */
function isSameSitePath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

/**
 * The path, query and hash of `raw` when it is a same-site path; otherwise null. The answer is
 * normalised (dot segments resolved, as a browser resolves them) and checked *after* that:
 * `/.//evil.example`, `/x/..//evil.example` and `/%2e%2e//evil.example` all normalise to
 * `//evil.example`, which a browser would take for another host. Checked twice: the raw text,
 * so that nothing but a path is parsed, and what normalising made of it.
 */
export function safeNextPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > NEXT_PATH_MAX) return null;
  if (!isSameSitePath(raw)) return null;
  // Control characters and backslashes have no place in our paths, and browsers rewrite them.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  if (!isSameSitePath(normalised) || normalised.length > NEXT_PATH_MAX) return null;
  // Coming back to the sign-in page after signing in would go nowhere.
  if (url.pathname === LOGIN_PATH) return null;
  return normalised;
}

/** `path` with `next` added to its query (left off when `next` is not a same-site path). */
export function withNext(path: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  if (!safe || safe === '/') return path;
  const [base = '', hash] = path.split('#', 2);
  const joined = `${base}${base.includes('?') ? '&' : '?'}next=${encodeURIComponent(safe)}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}
