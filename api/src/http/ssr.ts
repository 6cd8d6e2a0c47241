/**
 * Public pages rendered on the server (docs/decisions/0041-server-rendered-public-pages.md).
 *
 * The web's server bundle (web/dist-ssr/entry-server.js, built by `vite build --ssr`) is loaded
 * at run time by a dynamic import of its path: the API never imports the web's source, and the
 * web never imports the API's runtime code (the import rule, api/scripts/check-imports.ts). The
 * bundle gets a `call` that runs a procedure in-process through the router's caller, as an
 * anonymous visitor and only for the reads that are the same for everyone (app.ts, `callerFor`).
 *
 * Any failure before the first byte (no bundle, a render error, a procedure throwing where it
 * must not) falls back to the browser-rendered shell (index.html), logged.
 */
import { existsSync, readFileSync } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';

/** What the server bundle answers (web/src/entry-server.tsx; typed here, not imported). */
interface RenderedPage {
  status: number;
  redirect?: undefined;
  before: string;
  after: string;
  pipe(target: NodeJS.WritableStream): void;
}

/** The page sends the visitor elsewhere: answered before any HTML (decision 0066). */
interface RedirectedPage {
  status: 302;
  /** A path on this site. */
  redirect: string;
}

export type CallProcedure = (procedurePath: string, input: unknown) => Promise<unknown>;

interface ServerBundle {
  render(request: {
    url: string;
    siteOrigin: string;
    template: string;
    call: CallProcedure;
  }): Promise<RenderedPage | RedirectedPage | null>;
}

export interface PageRendererOptions {
  /** The server bundle's entry (config.webSsrEntry: web/dist-ssr/entry-server.js by default). */
  entry: string;
  /** The built index.html: the page template. */
  indexHtml: string;
  siteOrigin: string;
}

export interface PageRenderer {
  /**
   * The page as a stream with its status, a redirect (the page decided, with its answers, that
   * it is not the one to show), or null when the caller should serve the shell (not a
   * server-rendered path, or rendering failed: logged).
   */
  render(
    url: string,
    call: CallProcedure,
    log: FastifyBaseLogger,
  ): Promise<{ status: number; body: Readable } | { status: number; location: string } | null>;
}

/** The server bundle, loaded once on first use; null when it was not built. */
export function createPageRenderer(options: PageRendererOptions): PageRenderer {
  let bundle: Promise<ServerBundle | null> | undefined;
  let template: string | undefined;
  const load = () => {
    bundle ??= existsSync(options.entry)
      ? (import(pathToFileURL(options.entry).href) as Promise<ServerBundle>)
      : Promise.resolve(null);
    return bundle;
  };

  return {
    async render(url, call, log) {
      try {
        const loaded = await load();
        if (!loaded) return null;
        template ??= readFileSync(options.indexHtml, 'utf8');
        const page = await loaded.render({ url, siteOrigin: options.siteOrigin, template, call });
        if (!page) return null;
        if (page.redirect !== undefined) return { status: page.status, location: page.redirect };
        const body = new PassThrough();
        body.write(page.before);
        const app = new PassThrough();
        app.on('data', (chunk) => body.write(chunk));
        app.on('end', () => body.end(page.after));
        app.on('error', (error) => body.destroy(error));
        page.pipe(app);
        return { status: page.status, body };
      } catch (error) {
        log.error({ err: error, url }, 'server render failed: serving the shell');
        return null;
      }
    },
  };
}
