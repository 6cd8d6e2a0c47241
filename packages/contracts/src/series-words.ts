/**
 * Series words (issue 38, decision 0089): a volume's number ("1", "2.5"), a work's place in its
 * series ("His Dark Materials, book 1 of 3") and the "complete the set" line ("You have 1, 2 and
 * 4: 3 is on sale from £4.99"), the same on the book page and in the account.
 */
import { formatPence } from './money.ts';
import { plural } from './plural.ts';

/** A volume's number as people write it: 1, 2, 2.5. */
export function volumeNumber(position: number): string {
  return Number.isInteger(position) ? String(position) : position.toFixed(1);
}

/** "1", "1 and 2", "1, 2 and 4". */
export function listOfWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "His Dark Materials, book 1 of 3" (or "book 2.5" of a series whose volumes are not all whole). */
export function seriesPlaceWords(name: string, position: number | null, volumes: number): string {
  return position === null
    ? `Series: ${name}`
    : `Series: ${name}, book ${volumeNumber(position)} of ${volumes}`;
}

/** A volume as the set line reads it: its number, whether the member has it, its lowest all-in price on sale. */
export interface SetVolume {
  position: number;
  have: boolean;
  /** The lowest all-in price of a copy on sale, or null when none is. */
  lowestAllInMinor: number | null;
}

/**
 * The "complete the set" line for a member who has some of a series: what they have, and which
 * missing volumes are on sale from what all-in price (the lowest among them) and which are not.
 * Null when they have none of it (nothing to complete).
 */
export function completeTheSetLine(volumes: readonly SetVolume[]): string | null {
  const sorted = [...volumes].sort((a, b) => a.position - b.position);
  const had = sorted.filter((volume) => volume.have);
  if (had.length === 0) return null;
  const have = `You have ${listOfWords(had.map((volume) => volumeNumber(volume.position)))}`;
  const missing = sorted.filter((volume) => !volume.have);
  if (missing.length === 0) return `${have}: the whole set`;
  const onSale = missing.filter((volume) => volume.lowestAllInMinor !== null);
  const notOnSale = missing.filter((volume) => volume.lowestAllInMinor === null);
  const parts: string[] = [];
  if (onSale.length) {
    const from = Math.min(...onSale.map((volume) => volume.lowestAllInMinor!));
    const numbers = listOfWords(onSale.map((volume) => volumeNumber(volume.position)));
    parts.push(`${numbers} ${plural(onSale.length, 'is', 'are')} on sale from ${formatPence(from)}`);
  }
  if (notOnSale.length) {
    const numbers = listOfWords(notOnSale.map((volume) => volumeNumber(volume.position)));
    parts.push(`${numbers} ${plural(notOnSale.length, 'isn’t', 'aren’t')} on sale yet`);
  }
  return `${have}: ${parts.join('; ')}`;
}
