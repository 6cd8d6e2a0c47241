import { describe, expect, it } from 'vitest';
import { isApiPath, pathOf } from './paths.ts';

describe('isApiPath', () => {
  it('knows the API, probes, files and webhooks, with or without a query', () => {
    for (const url of [
      '/trpc',
      '/trpc/listings.get?input=%7B%7D',
      '/api/v1/listings',
      '/healthz?full=1',
      '/storage/a.jpg',
      '/payments/webhook',
      '/sitemaps/books-1.xml',
    ]) {
      expect(isApiPath(url), url).toBe(true);
    }
  });

  it('leaves every page to the web, even one whose name starts like the API', () => {
    for (const url of [
      '/',
      '/account/orders',
      '/apiary-books',
      '/trpcs',
      '/listing/dune?ref=home',
      '/payments-help',
    ]) {
      expect(isApiPath(url), url).toBe(false);
    }
    expect(pathOf('/search?q=api')).toBe('/search');
  });
});
