import {
  COPY_ATTRIBUTE_LABELS,
  type CopyAttribute,
  type ListingDetail,
  poundsString,
} from '@reshelf/contracts';
import { leadPicture } from './listing-images.ts';

const CONDITION_SCHEMA = 'https://schema.org/UsedCondition';

/** The collectors' attributes that say which edition or printing a copy is (schema.org bookEdition). */
const EDITION_ATTRIBUTES: CopyAttribute[] = ['firstEdition', 'firstPrinting', 'bookClub', 'printOnDemand'];

function bookEdition(listing: ListingDetail): string | null {
  const said = EDITION_ATTRIBUTES.filter((attribute) => listing[attribute]);
  return said.length ? said.map((attribute) => COPY_ATTRIBUTE_LABELS[attribute]).join(', ') : null;
}

/** schema.org Book with its Offer, for search engines (https://schema.org/Book). */
export function bookJsonLd(listing: ListingDetail, origin: string): Record<string, unknown> {
  const url = `${origin}/listing/${listing.slug}`;
  const availability = listing.available
    ? 'https://schema.org/InStock'
    : listing.unavailableReason === 'sold'
      ? 'https://schema.org/SoldOut'
      : 'https://schema.org/Discontinued';
  const picture = leadPicture(listing.photos[0], listing.coverUrl);
  const edition = bookEdition(listing);
  return {
    '@context': 'https://schema.org',
    '@type': 'Book',
    name: listing.title,
    ...(listing.subtitle ? { alternativeHeadline: listing.subtitle } : {}),
    author: listing.authors.map((name) => ({ '@type': 'Person', name })),
    ...(listing.isbn13 ? { isbn: listing.isbn13 } : {}),
    ...(listing.publisher ? { publisher: { '@type': 'Organization', name: listing.publisher } } : {}),
    ...(listing.publishedYear ? { datePublished: String(listing.publishedYear) } : {}),
    ...(listing.pageCount ? { numberOfPages: listing.pageCount } : {}),
    ...(edition ? { bookEdition: edition } : {}),
    ...(listing.bookDescription ? { description: listing.bookDescription } : {}),
    ...(picture ? { image: new URL(picture, origin).href } : {}),
    inLanguage: listing.language,
    url,
    offers: {
      '@type': 'Offer',
      url,
      // The all-in price (decision 0071): what the buyer must pay, buyer protection included.
      price: poundsString(listing.price.allInMinor),
      priceCurrency: 'GBP',
      availability,
      itemCondition: CONDITION_SCHEMA,
      seller: {
        '@type': listing.charity ? 'Organization' : 'Person',
        name: listing.seller.displayName,
      },
      shippingDetails: {
        '@type': 'OfferShippingDetails',
        shippingRate: {
          '@type': 'MonetaryAmount',
          value: poundsString(listing.price.postageMinor),
          currency: 'GBP',
        },
        shippingDestination: { '@type': 'DefinedRegion', addressCountry: 'GB' },
      },
    },
  };
}
