import { type BookPage, poundsString } from '@reshelf/contracts';

const FORMAT_SCHEMA = {
  paperback: 'https://schema.org/Paperback',
  hardback: 'https://schema.org/Hardcover',
} as const;

/**
 * schema.org Book for a work (https://schema.org/Book): its editions as `workExample`, and its
 * copies on sale as one AggregateOffer priced all-in (decision 0071), as the page shows them.
 */
export function workJsonLd(page: BookPage, origin: string): Record<string, unknown> {
  const url = `${origin}/book/${page.work.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: page.work.title,
    author: page.work.authors.map((name) => ({ '@type': 'Person', name })),
    ...(page.work.description ? { description: page.work.description } : {}),
    ...(page.work.coverUrl ? { image: new URL(page.work.coverUrl, origin).href } : {}),
    url,
    workExample: page.editions.map((edition) => ({
      '@type': 'Book',
      name: edition.subtitle ? `${edition.title}: ${edition.subtitle}` : edition.title,
      ...(edition.isbn13 ? { isbn: edition.isbn13 } : {}),
      ...(edition.publisher ? { publisher: { '@type': 'Organization', name: edition.publisher } } : {}),
      ...(edition.publishedYear ? { datePublished: String(edition.publishedYear) } : {}),
      ...(edition.formats.length === 1 ? { bookFormat: FORMAT_SCHEMA[edition.formats[0]!] } : {}),
      url: `${url}?edition=${edition.id}`,
    })),
    ...(page.lowAllInMinor !== null && page.highAllInMinor !== null
      ? {
          offers: {
            '@type': 'AggregateOffer',
            // All-in prices: item and buyer protection, postage on top (decision 0071).
            lowPrice: poundsString(page.lowAllInMinor),
            highPrice: poundsString(page.highAllInMinor),
            offerCount: page.copiesOnSale,
            priceCurrency: 'GBP',
            availability: 'https://schema.org/InStock',
            itemCondition: 'https://schema.org/UsedCondition',
          },
        }
      : {}),
  };
}
