/**
 * The book, then the copy (decision 0079): a work groups editions, an edition groups copies.
 * Collectors' words and the AB Bookman scale, without zod (the web's first load reads these).
 */
import { CONDITION_LABELS, type Condition } from './constants.ts';

/** The AB Bookman scale, best first, as collectors and the trade grade a copy or its jacket. */
export const BOOKMAN_GRADES = ['fine', 'near_fine', 'very_good', 'good', 'fair', 'poor'] as const;
export type BookmanGrade = (typeof BOOKMAN_GRADES)[number];
export const BOOKMAN_LABELS: Record<BookmanGrade, string> = {
  fine: 'Fine',
  near_fine: 'Near Fine',
  very_good: 'Very Good',
  good: 'Good',
  fair: 'Fair',
  poor: 'Poor',
};

/**
 * Reshelf's everyday grade read on the Bookman scale, where a seller of a collectable copy has
 * not graded it themselves. Near Fine and Poor are only ever a seller's own grade.
 */
export const BOOKMAN_FOR_CONDITION: Record<Condition, BookmanGrade> = {
  like_new: 'fine',
  very_good: 'very_good',
  good: 'good',
  well_read: 'fair',
};

/** A dust jacket: graded on its own, or absent ("none"); null when the seller does not say. */
export const DUST_JACKET_STATES = ['none', ...BOOKMAN_GRADES] as const;
export type DustJacketState = (typeof DUST_JACKET_STATES)[number];
export const DUST_JACKET_LABELS: Record<DustJacketState, string> = {
  none: 'No dust jacket',
  ...BOOKMAN_LABELS,
};

/** What a collector asks of a copy, each a yes or no the seller states. */
export const COPY_ATTRIBUTES = [
  'firstEdition',
  'firstPrinting',
  'signed',
  'inscribed',
  'exLibrary',
  'bookClub',
  'printOnDemand',
] as const;
export type CopyAttribute = (typeof COPY_ATTRIBUTES)[number];
export const COPY_ATTRIBUTE_LABELS: Record<CopyAttribute, string> = {
  firstEdition: 'First edition',
  firstPrinting: 'First printing',
  signed: 'Signed',
  inscribed: 'Inscribed',
  exLibrary: 'Ex-library',
  bookClub: 'Book club edition',
  printOnDemand: 'Print on demand',
};

/** A copy is collectable when it is a first edition or printing, signed or inscribed. */
export function isCollectable(copy: {
  firstEdition: boolean;
  firstPrinting: boolean;
  signed: boolean;
  inscribed: boolean;
}): boolean {
  return copy.firstEdition || copy.firstPrinting || copy.signed || copy.inscribed;
}

/** A collectable copy's Bookman grade: the seller's own, or its everyday grade's. */
export function bookmanGradeOf(copy: {
  condition: Condition;
  bookmanGrade: BookmanGrade | null;
}): BookmanGrade {
  return copy.bookmanGrade ?? BOOKMAN_FOR_CONDITION[copy.condition];
}

/** How results are grouped: one per edition (an ISBN, or an edition without one) or per work. */
export const RESULT_GROUPS = ['edition', 'work'] as const;
export type ResultGroup = (typeof RESULT_GROUPS)[number];
export const RESULT_GROUP_LABELS: Record<ResultGroup, string> = {
  edition: 'Each edition',
  work: 'Each book',
};

/** "Did you mean": the words of a query corrected, and the text the page shows. */
export const CORRECTION_WORDS = {
  showing: 'Showing results for',
  instead: 'search instead for',
} as const;

/** What a seller is told when a copy's collectors' details do not fit together. */
export const COLLECTOR_MESSAGES = {
  bookmanNotCollectable:
    'A Bookman grade is for a collectable copy: tick first edition, first printing, signed or inscribed, or leave the grade as your condition’s',
  bookmanUnknown: 'Choose a Bookman grade: Fine, Near Fine, Very Good, Good, Fair or Poor',
  dustJacketUnknown: 'Choose the dust jacket’s grade, “No dust jacket”, or “Not saying”',
} as const;

/** The Bookman grade a collectable copy is shown with, or null for a copy that is not collectable. */
export function shownBookmanGrade(copy: {
  firstEdition: boolean;
  firstPrinting: boolean;
  signed: boolean;
  inscribed: boolean;
  condition: Condition;
  bookmanGrade: BookmanGrade | null;
}): BookmanGrade | null {
  return isCollectable(copy) ? bookmanGradeOf(copy) : null;
}

/** A copy as the collectors' words read it. */
export interface CollectorCopy {
  condition: Condition;
  firstEdition: boolean;
  firstPrinting: boolean;
  signed: boolean;
  inscribed: boolean;
  exLibrary: boolean;
  bookClub: boolean;
  printOnDemand: boolean;
  dustJacket: DustJacketState | null;
  bookmanGrade: BookmanGrade | null;
}

/** The attributes a copy has, in COPY_ATTRIBUTES' order ("First edition", "Signed"…). */
export function copyAttributesOf(copy: CollectorCopy): string[] {
  return COPY_ATTRIBUTES.filter((attribute) => copy[attribute]).map(
    (attribute) => COPY_ATTRIBUTE_LABELS[attribute],
  );
}

/** The dust jacket in words ("Dust jacket: Near Fine", "No dust jacket"), or null when unsaid. */
export function dustJacketText(copy: Pick<CollectorCopy, 'dustJacket'>): string | null {
  if (copy.dustJacket === null) return null;
  return copy.dustJacket === 'none'
    ? DUST_JACKET_LABELS.none
    : `Dust jacket: ${DUST_JACKET_LABELS[copy.dustJacket]}`;
}

/** The everyday grade, and for a collectable copy its Bookman grade: "Very good (Bookman: Very Good)". */
export function conditionWithBookman(copy: CollectorCopy): string {
  const grade = shownBookmanGrade(copy);
  const everyday = CONDITION_LABELS[copy.condition];
  return grade ? `${everyday} (Bookman: ${BOOKMAN_LABELS[grade]})` : everyday;
}
