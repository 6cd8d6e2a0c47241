import { hasPhotoSizes, photoThumbUrl } from '@reshelf/contracts';

/**
 * The picture that stands for a listing wherever it is shown (its card, its page, Open Graph,
 * JSON-LD): the seller's first photo, else the book's cover; null when there is neither (a cover
 * is drawn). One rule, so a card and its page never show different pictures.
 */
export function leadPicture(firstPhoto: string | null | undefined, coverUrl: string | null): string | null {
  return firstPhoto ?? coverUrl ?? null;
}

/** The lead picture at card size (a stored photo's small size; any other URL as it is). */
export function leadThumb(firstPhoto: string | null | undefined, coverUrl: string | null): string | null {
  const picture = leadPicture(firstPhoto, coverUrl);
  return picture ? photoThumbUrl(picture) : null;
}

/**
 * The lead picture as a card shows it: a stored photo with every size as it is (the card's
 * `<picture>` picks the size it needs), any other at its small size.
 */
export function leadCardPicture(
  firstPhoto: string | null | undefined,
  coverUrl: string | null,
): string | null {
  const picture = leadPicture(firstPhoto, coverUrl);
  if (!picture) return null;
  return hasPhotoSizes(picture) ? picture : photoThumbUrl(picture);
}
