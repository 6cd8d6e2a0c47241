/** How the book page and a listing's "more of this book" name an edition and its copies. */
import { type BookEdition, countOf, formatIsbn, formatPence } from '@reshelf/contracts';

/** "2 copies from £4.14", or that none is for sale. */
export function copiesFrom(copies: number, fromMinor: number | null): string {
  return copies > 0 && fromMinor !== null
    ? `${countOf(copies, 'copy', 'copies')} from ${formatPence(fromMinor)}`
    : 'None for sale right now';
}

/** An edition in a line: publisher and year, else its ISBN, else its title. */
export function editionName(
  edition: Pick<BookEdition, 'publisher' | 'publishedYear' | 'isbn13' | 'title'>,
): string {
  const made = [edition.publisher, edition.publishedYear].filter(Boolean).join(', ');
  return made || (edition.isbn13 ? `ISBN ${formatIsbn(edition.isbn13)}` : edition.title);
}
