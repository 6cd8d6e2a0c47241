import { PRODUCT } from '@reshelf/contracts';
import { createContext, useContext, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/** The site-wide description (also in index.html), used when a page gives none of its own. */
export const DEFAULT_DESCRIPTION =
  'Reshelf is the UK marketplace for pre-loved books. Buy second-hand books with buyer protection, or sell yours in under a minute.';

/** What a page says about itself in the document head. */
export interface PageHead {
  /** The whole document title: "{title} · Reshelf". */
  title: string;
  description: string;
  /** Open Graph: the picture (a listing's cover) and the kind of page ("website", "book"). */
  image?: string | undefined;
  type: string;
  /**
   * The page's largest picture, for the server's head to preload (`<link rel="preload"
   * as="image" imagesrcset imagesizes fetchpriority="high">`): the listing page's first photo.
   */
  preloadImage?: ImagePreload | undefined;
}

/** A responsive image to preload: the same srcset and sizes as the `<source>` it stands for. */
export interface ImagePreload {
  srcset: string;
  sizes: string;
  type: string;
}

export interface PageMetaExtra {
  image?: string | null | undefined;
  type?: string;
  preloadImage?: ImagePreload | null | undefined;
}

/**
 * Server rendering only (web/src/entry-server.tsx): the page's head is written here while it
 * renders, since effects do not run on the server. In the browser there is no collector.
 */
export const PageHeadContext = createContext<{ current: PageHead | null } | null>(null);

/** Sets the document title ("{title} · Reshelf") and the meta description for the current page. */
export function usePageMeta(
  title: string,
  description: string = DEFAULT_DESCRIPTION,
  extra: PageMetaExtra = {},
): void {
  const collector = useContext(PageHeadContext);
  if (collector) {
    collector.current = {
      title: `${title} · ${PRODUCT.name}`,
      description,
      image: extra.image ?? undefined,
      type: extra.type ?? 'website',
      preloadImage: extra.preloadImage ?? undefined,
    };
  }

  useEffect(() => {
    document.title = `${title} · ${PRODUCT.name}`;
  }, [title]);

  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);

  // A server-rendered page came with its canonical URL and Open Graph tags: after a move to
  // another page in the browser they follow it (the server's origin kept).
  useEffect(() => {
    const canonical = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!canonical) return;
    const url = new URL(window.location.pathname, canonical.href).href;
    canonical.href = url;
    const og = (property: string, content: string) => {
      const tag = document.head.querySelector<HTMLMetaElement>(`meta[property="${property}"]`);
      if (tag) tag.content = content;
    };
    og('og:url', url);
    og('og:title', `${title} · ${PRODUCT.name}`);
    og('og:description', description);
  }, [title, description]);
}

/**
 * Server rendering only (web/src/entry-server.tsx): the HTTP status the rendered page asks for.
 * In the browser there is no collector.
 */
export const PageStatusContext = createContext<{ current: number } | null>(null);

/** The page answers with this HTTP status when the server renders it (the not-found page: 404). */
export function usePageStatus(status: number): void {
  const collector = useContext(PageStatusContext);
  if (collector) collector.current = status;
}

/**
 * Server rendering only (web/src/entry-server.tsx): where the rendered page sends the visitor
 * instead (a path), if it does. In the browser there is no collector.
 */
export const PageRedirectContext = createContext<{ current: string | null } | null>(null);

/**
 * The page is not the one to show: go to `to` instead (history replaced). On the server the
 * answer is that redirect (302 with its Location) before any HTML is sent; in the browser, after
 * a move to the page, it navigates there. Null: stay.
 */
export function usePageRedirect(to: string | null): void {
  const collector = useContext(PageRedirectContext);
  if (collector && to) collector.current = to;
  const navigate = useNavigate();
  useEffect(() => {
    if (to) navigate(to, { replace: true });
  }, [navigate, to]);
}
