/** A book found by ISBN outside our catalogue, as the columns of its row in `books`. */
import type { ExternalBook } from '../../platform/book-lookup/book-lookup.ts';

export function bookColumns(found: ExternalBook) {
  return {
    title: found.title,
    subtitle: found.subtitle,
    authors: found.authors,
    publisher: found.publisher,
    published_year: found.publishedYear,
    page_count: found.pageCount,
    cover_url: found.coverUrl,
  };
}
