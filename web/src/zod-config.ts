/**
 * zod without its `new Function` fast path. The site's Content-Security-Policy allows no eval
 * (api/src/http/security-headers.ts, decision 0025); zod would otherwise probe for it on the
 * first object it parses, and the browser reports the refused probe as a policy violation even
 * though zod catches it. Imported first in main.tsx, before any schema is built.
 */
import { z } from 'zod';

z.config({ jitless: true });
