/** What a cached answer is tagged with, and what a change notification drops (decision 0042). */
import { describe, expect, it } from 'vitest';
import { callTags, etagMatches, notificationTags, urlTags } from './public-cache.ts';

const url = (paths: string, input: unknown, batch = false) =>
  `/trpc/${paths}?${batch ? 'batch=1&' : ''}input=${encodeURIComponent(JSON.stringify(input))}`;

describe('tags of a cached answer', () => {
  it('name the listing of a listing page, the category of a filtered browse or search', () => {
    expect(urlTags(url('catalogue.listings.bySlug', { slug: 'emma-1' }))).toEqual(['listing:emma-1']);
    expect(urlTags(url('catalogue.listings.browse', { category: 'fiction', sort: 'newest' }))).toEqual([
      'category:fiction',
    ]);
    expect(urlTags(url('catalogue.listings.search', { q: 'emma', category: 'romance' }))).toEqual([
      'category:romance',
    ]);
    expect(urlTags(url('catalogue.books.public.search', { category: 'fiction', group: 'work' }))).toEqual([
      'category:fiction',
    ]);
    expect(urlTags(url('catalogue.books.public.search', { q: 'emma' }))).toEqual(['lists']);
    expect(urlTags(url('catalogue.listings.browse', { genre: 'horror' }))).toEqual(['lists']);
    expect(urlTags('/trpc/catalogue.listings.search?input=%7B%22q%22%3A%22x%22%7D')).toEqual(['lists']);
  });

  it('put taxonomy and pages in families of their own, and everything else in lists', () => {
    expect(callTags('catalogue.taxonomy.public.categories', undefined)).toEqual(['taxonomy']);
    expect(callTags('platform.pages.bySlug', { slug: 'faq' })).toEqual(['pages']);
    expect(callTags('catalogue.discovery.public.home', undefined)).toEqual(['lists']);
    expect(callTags('catalogue.listings.bySlug', {})).toEqual(['lists']);
  });

  it('cover every call of a batch, and an unreadable input', () => {
    expect(
      urlTags(
        url(
          'catalogue.listings.bySlug,catalogue.taxonomy.public.categories',
          { 0: { slug: 'a' }, 1: {} },
          true,
        ),
      ),
    ).toEqual(['listing:a', 'taxonomy']);
    expect(urlTags('/trpc/catalogue.listings.bySlug?input=%7Bnot-json')).toEqual(['lists']);
  });
});

describe('a change notification', () => {
  it('of listings drops lists, their pages, sellers and categories', () => {
    const tags = notificationTags(
      `listings:${JSON.stringify({ slugs: ['emma-1'], sellers: ['u1'], categories: ['fiction', 'classics'] })}`,
    );
    expect([...(tags ?? [])].sort()).toEqual([
      'category:classics',
      'category:fiction',
      'listing:emma-1',
      'lists',
      'seller:u1',
    ]);
  });

  it('of a profile drops lists and that seller’s pages; of pages, the pages', () => {
    expect([...(notificationTags('profiles:{"sellers":["u2"]}') ?? [])].sort()).toEqual([
      'lists',
      'seller:u2',
    ]);
    expect([...(notificationTags('pages') ?? [])]).toEqual(['pages']);
  });

  it('drops everything when it names no rows, cannot be read, or is of another table', () => {
    for (const payload of [
      'listings',
      'profiles',
      'settings',
      'books',
      'categories',
      'listings:{broken',
      'listings:{"slugs":["a"]}',
      'listings:{"slugs":[1],"sellers":[],"categories":[]}',
      '',
    ]) {
      expect(notificationTags(payload), payload).toBeNull();
    }
  });
});

describe('If-None-Match', () => {
  it('matches by weak comparison, in a list, or *', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });
});
