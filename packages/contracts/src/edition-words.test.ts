/**
 * Collectors' words: which copies are collectable, the Bookman grade they are shown with, and
 * the attributes and dust jacket in the words the listing page and the review step use.
 */
import { describe, expect, it } from 'vitest';
import { CONDITION_LABELS, CONDITIONS } from './constants.ts';
import {
  BOOKMAN_FOR_CONDITION,
  BOOKMAN_LABELS,
  COPY_ATTRIBUTE_LABELS,
  COPY_ATTRIBUTES,
  type CollectorCopy,
  conditionWithBookman,
  copyAttributesOf,
  dustJacketText,
  shownBookmanGrade,
} from './edition-words.ts';

const PLAIN: CollectorCopy = {
  condition: 'very_good',
  firstEdition: false,
  firstPrinting: false,
  signed: false,
  inscribed: false,
  exLibrary: false,
  bookClub: false,
  printOnDemand: false,
  dustJacket: null,
  bookmanGrade: null,
};

describe('collectors’ words', () => {
  it('grade a copy on the Bookman scale only when it is a first edition or printing, signed or inscribed', () => {
    expect(shownBookmanGrade(PLAIN)).toBeNull();
    for (const attribute of ['exLibrary', 'bookClub', 'printOnDemand'] as const) {
      expect(shownBookmanGrade({ ...PLAIN, [attribute]: true })).toBeNull();
    }
    for (const attribute of ['firstEdition', 'firstPrinting', 'signed', 'inscribed'] as const) {
      expect(shownBookmanGrade({ ...PLAIN, [attribute]: true })).toBe('very_good');
    }
  });

  it('read the everyday grade on the Bookman scale unless the seller graded it themselves', () => {
    for (const condition of CONDITIONS) {
      const copy = { ...PLAIN, signed: true, condition };
      expect(shownBookmanGrade(copy)).toBe(BOOKMAN_FOR_CONDITION[condition]);
      expect(conditionWithBookman(copy)).toBe(
        `${CONDITION_LABELS[condition]} (Bookman: ${BOOKMAN_LABELS[BOOKMAN_FOR_CONDITION[condition]]})`,
      );
    }
    expect(conditionWithBookman({ ...PLAIN, signed: true, bookmanGrade: 'near_fine' })).toBe(
      `${CONDITION_LABELS.very_good} (Bookman: Near Fine)`,
    );
    // A grade left on a copy that is not collectable is not shown.
    expect(conditionWithBookman({ ...PLAIN, bookmanGrade: 'fine' })).toBe(CONDITION_LABELS.very_good);
  });

  it('name each attribute a copy has, in order, and the dust jacket only when stated', () => {
    expect(copyAttributesOf(PLAIN)).toEqual([]);
    const all = Object.fromEntries(COPY_ATTRIBUTES.map((attribute) => [attribute, true]));
    expect(copyAttributesOf({ ...PLAIN, ...all })).toEqual(
      COPY_ATTRIBUTES.map((attribute) => COPY_ATTRIBUTE_LABELS[attribute]),
    );
    expect(copyAttributesOf({ ...PLAIN, signed: true, bookClub: true })).toEqual([
      'Signed',
      'Book club edition',
    ]);
    expect(dustJacketText(PLAIN)).toBeNull();
    expect(dustJacketText({ dustJacket: 'none' })).toBe('No dust jacket');
    expect(dustJacketText({ dustJacket: 'near_fine' })).toBe('Dust jacket: Near Fine');
  });
});
