/**
 * An Open Library edition's `series` field, read into a series name and a volume number
 * (decision 0089). Open Library keeps it as the cataloguer typed it, in MARC's habits and
 * others: "Discworld ; 1", "His Dark Materials -- 2", "Harry Potter (1)", "Harry Potter #4",
 * "A Song of Ice and Fire, book 1", "His dark materials ; bk. 2", "Discworld series", "Wolf Hall
 * trilogy". The name keeps the words it was given (a trailing "series" or a publisher's imprint
 * in brackets goes); the number is a whole or half volume (1, 2, 2.5) or none.
 */

export interface SeriesPlace {
  name: string;
  /** The volume (1, 2, 2.5), or null when the field names the series alone. */
  position: number | null;
}

/** The largest volume `works.series_position` (numeric(5,1)) holds. */
const MAX_POSITION = 9999.5;

const NUMBER = String.raw`(\d{1,4}(?:\.5)?)`;
/** "; 1", "-- 2", "— 2", ", book 1", "; bk. 2", "#4", "vol. 3", "no. 3", "part 2" at the end. */
const TRAILING = new RegExp(
  String.raw`^(.*?)\s*(?:;|--|—|–|,|:|#)\s*(?:(?:book|bk|vol(?:ume)?|v|no|number|part|pt)\.?\s*)?#?\s*${NUMBER}(?:st|nd|rd|th)?\s*\.?$`,
  'i',
);
/** "Harry Potter (1)", "Discworld (book 3)". */
const BRACKETED = new RegExp(
  String.raw`^(.*?)\s*\(\s*(?:(?:book|bk|vol(?:ume)?|v|no|number|part|pt)\.?\s*)?#?\s*${NUMBER}\s*\)\s*\.?$`,
  'i',
);
/** "Harry Potter book 1", "His Dark Materials vol. 2" (a word says it is a number). */
const WORDED = new RegExp(
  String.raw`^(.*?)\s+(?:book|bk|vol(?:ume)?|no|number|part|pt)\.?\s*#?\s*${NUMBER}\s*\.?$`,
  'i',
);

function cleanName(raw: string): string {
  return raw
    .replace(/\s*\([^()]*\)\s*$/, '')
    .replace(/[\s,;:.\-–—#]+$/, '')
    .replace(/\s+series$/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** One `series` string read, or null when it names nothing usable. */
export function parseSeries(text: string): SeriesPlace | null {
  const value = text.replace(/\s+/g, ' ').trim();
  if (!value || value.length > 300) return null;
  for (const shape of [BRACKETED, TRAILING, WORDED]) {
    const match = shape.exec(value);
    if (!match) continue;
    const name = cleanName(match[1]!);
    const position = Number(match[2]);
    // A volume 0 or beyond what the catalogue holds is no place: the series alone.
    if (name)
      return {
        name: name.slice(0, 200),
        position: position > 0 && position <= MAX_POSITION ? position : null,
      };
  }
  const name = cleanName(value);
  return name && !/^\d/.test(name) ? { name: name.slice(0, 200), position: null } : null;
}

/** The first usable series of an edition record's `series` field (a list of strings, or one). */
export function seriesOf(field: unknown): SeriesPlace | null {
  const items = Array.isArray(field) ? field : [field];
  const places = items
    .flatMap((item) => (typeof item === 'string' ? [parseSeries(item)] : []))
    .filter(Boolean);
  // A numbered one first: "Discworld ; 1" says more than "Discworld".
  return places.find((place) => place!.position !== null) ?? places[0] ?? null;
}
