/**
 * GET /robots.txt, /sitemap.xml and /sitemaps/<pages|listings>-<n>.xml (see sitemap.service.ts).
 * Registered before the web's fallback, which would otherwise answer them with index.html.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { ERRORS } from '../../errors.ts';
import { requireAccess } from '../../http/access.ts';
import {
  robotsTxt,
  rootSitemap,
  SITEMAP_MAX_URLS,
  sitemapFile,
  sitemapIndexXml,
  urlsetXml,
} from './sitemap.service.ts';

/** Crawlers come back daily at most: ten minutes' staleness costs nothing. */
const SITEMAP_SECONDS = 600;
const ROBOTS_CACHE = 'public, max-age=3600';
const SITEMAP_FILE = /^(pages|listings)-([1-9][0-9]{0,6})\.xml$/;
/** A file of 50,000 listings is about 5 MB and takes a few hundred ms to make: keep a few. */
const CACHE_BYTES = 32 * 1024 * 1024;

function sendXml(reply: FastifyReply, xml: string) {
  return reply
    .type('application/xml; charset=utf-8')
    .header('cache-control', `public, max-age=${SITEMAP_SECONDS}`)
    .send(xml);
}

/** Made sitemaps by origin and path, for as long as crawlers are told to keep them. */
function createSitemapCache(ttlMs: number) {
  const entries = new Map<string, { xml: string; expiresAt: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.xml.length;
    entries.delete(key);
  };
  return async (key: string, make: () => Promise<string | null>): Promise<string | null> => {
    const hit = entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.xml;
    drop(key);
    const xml = await make();
    if (xml === null || ttlMs <= 0) return xml;
    entries.set(key, { xml, expiresAt: Date.now() + ttlMs });
    bytes += xml.length;
    for (const oldest of entries.keys()) {
      if (bytes <= CACHE_BYTES) break;
      drop(oldest);
    }
    return xml;
  };
}

export async function registerSitemapRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    /** Absolute links use the one configured public origin (config.siteOrigin), never a request's Host. */
    config: Pick<AppConfig, 'siteOrigin'>;
    /** URLs per sitemap file: the protocol's 50,000 unless a test lowers it. */
    perFile?: number;
    /** How long a made sitemap is kept in memory (10 minutes; 0: never). */
    cacheMs?: number;
  },
): Promise<void> {
  const perFile = deps.perFile ?? SITEMAP_MAX_URLS;
  const cached = createSitemapCache(deps.cacheMs ?? SITEMAP_SECONDS * 1000);

  app.get('/robots.txt', requireAccess('public'), async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', ROBOTS_CACHE)
      .send(robotsTxt(deps.config.siteOrigin)),
  );

  app.get('/sitemap.xml', requireAccess('public'), async (_request, reply) => {
    const origin = deps.config.siteOrigin;
    const document = await rootSitemap(deps.db, perFile);
    return sendXml(
      reply,
      document.kind === 'urlset'
        ? urlsetXml(origin, document.entries)
        : sitemapIndexXml(origin, document.paths),
    );
  });

  app.get<{ Params: { file: string } }>(
    '/sitemaps/:file',
    requireAccess('public'),
    async (request, reply) => {
      const match = SITEMAP_FILE.exec(request.params.file);
      const origin = deps.config.siteOrigin;
      const xml = match
        ? await cached(`${origin}/sitemaps/${request.params.file}`, async () => {
            const entries = await sitemapFile(
              deps.db,
              match[1] as 'pages' | 'listings',
              Number(match[2]),
              perFile,
            );
            return entries ? urlsetXml(origin, entries) : null;
          })
        : null;
      if (xml === null) {
        return reply.code(404).send({
          error: ERRORS.NOT_FOUND.title,
          message: `There is no sitemap called ${request.params.file}: /sitemap.xml lists them.`,
        });
      }
      return sendXml(reply, xml);
    },
  );
}
