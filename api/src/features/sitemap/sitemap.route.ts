/**
 * GET /robots.txt, /sitemap.xml and /sitemaps/<pages|listings>-<n>.xml (see sitemap.service.ts).
 * Registered before the web's fallback, which would otherwise answer them with index.html.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import {
  robotsTxt,
  rootSitemap,
  SITEMAP_MAX_URLS,
  sitemapFile,
  sitemapIndexXml,
  urlsetXml,
} from './sitemap.service.ts';

/**
 * The site's public origin for absolute links: PUBLIC_ORIGIN when set, else the origin the
 * request came in on. (Kept in this one function so a shared public-origin helper can replace it.)
 */
export function siteOrigin(config: Pick<AppConfig, 'publicOrigin'>, request: FastifyRequest): string {
  return config.publicOrigin ? new URL(config.publicOrigin).origin : `${request.protocol}://${request.host}`;
}

/** Crawlers come back daily at most: a few minutes' staleness costs nothing. */
const SITEMAP_CACHE = 'public, max-age=600';
const ROBOTS_CACHE = 'public, max-age=3600';
const SITEMAP_FILE = /^(pages|listings)-([1-9][0-9]{0,6})\.xml$/;

function sendXml(reply: FastifyReply, xml: string) {
  return reply.type('application/xml; charset=utf-8').header('cache-control', SITEMAP_CACHE).send(xml);
}

export async function registerSitemapRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    config: Pick<AppConfig, 'publicOrigin'>;
    /** URLs per sitemap file: the protocol's 50,000 unless a test lowers it. */
    perFile?: number;
  },
): Promise<void> {
  const perFile = deps.perFile ?? SITEMAP_MAX_URLS;

  app.get('/robots.txt', async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', ROBOTS_CACHE)
      .send(robotsTxt(siteOrigin(deps.config, request))),
  );

  app.get('/sitemap.xml', async (request, reply) => {
    const origin = siteOrigin(deps.config, request);
    const document = await rootSitemap(deps.db, perFile);
    return sendXml(
      reply,
      document.kind === 'urlset'
        ? urlsetXml(origin, document.entries)
        : sitemapIndexXml(origin, document.paths),
    );
  });

  app.get<{ Params: { file: string } }>('/sitemaps/:file', async (request, reply) => {
    const match = SITEMAP_FILE.exec(request.params.file);
    const entries = match
      ? await sitemapFile(deps.db, match[1] as 'pages' | 'listings', Number(match[2]), perFile)
      : null;
    if (!entries) {
      return reply.code(404).send({
        error: 'Not Found',
        message: `There is no sitemap called ${request.params.file}: /sitemap.xml lists them.`,
      });
    }
    return sendXml(reply, urlsetXml(siteOrigin(deps.config, request), entries));
  });
}
