/**
 * zod without its `new Function` fast path. The site's Content-Security-Policy allows no eval
 * (api/src/http/security-headers.ts, decision 0025); zod would otherwise probe for it on the
 * first object it parses, and the browser reports the refused probe as a policy violation even
 * though zod catches it. Imported first in main.tsx, before any schema is built.
 *
 * Set through zod's global configuration object (`globalThis.__zod_globalConfig`, which
 * `z.config()` writes and every zod copy reads), not by importing zod: the page's first load
 * then carries no zod at all; it comes with the pages and forms that use it (decision 0041).
 * zod-config.test.ts checks that zod sees it.
 */
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = Object.assign(scope.__zod_globalConfig ?? {}, { jitless: true });

export {};
