import { describe, expect, it } from 'vitest';
import {
  BULK_MESSAGES,
  BULK_TEMPLATE_CSV,
  bulkItemKey,
  CHARITY_NUMBER_MESSAGES,
  charitySignupInputSchema,
  declineReasonSchema,
  mapBulkHeader,
  parseCharityNumber,
  requestReturnInputSchema,
  taxYearLabel,
  taxYearOf,
  validateBulkRow,
} from './charity.ts';

describe('registered charity numbers', () => {
  it('accepts England and Wales numbers of 6 to 8 digits', () => {
    expect(parseCharityNumber('123456')).toEqual({ ok: true, number: '123456', register: 'england_wales' });
    expect(parseCharityNumber(' 1148392 ')).toEqual({
      ok: true,
      number: '1148392',
      register: 'england_wales',
    });
    expect(parseCharityNumber('12345678')).toEqual({
      ok: true,
      number: '12345678',
      register: 'england_wales',
    });
  });

  it('refuses England and Wales numbers of other lengths with the rule', () => {
    expect(parseCharityNumber('12345')).toEqual({ ok: false, message: CHARITY_NUMBER_MESSAGES.englandWales });
    expect(parseCharityNumber('123456789')).toEqual({
      ok: false,
      message: CHARITY_NUMBER_MESSAGES.englandWales,
    });
  });

  it('accepts Scottish numbers (SC and 6 digits), in any case and with spaces', () => {
    expect(parseCharityNumber('SC012345')).toEqual({ ok: true, number: 'SC012345', register: 'scotland' });
    expect(parseCharityNumber('sc 012 345')).toEqual({ ok: true, number: 'SC012345', register: 'scotland' });
    expect(parseCharityNumber('SC01234')).toEqual({ ok: false, message: CHARITY_NUMBER_MESSAGES.scotland });
    expect(parseCharityNumber('SC0123456')).toEqual({ ok: false, message: CHARITY_NUMBER_MESSAGES.scotland });
  });

  it('accepts Northern Ireland numbers (NIC and 6 digits)', () => {
    expect(parseCharityNumber('NIC100123')).toEqual({
      ok: true,
      number: 'NIC100123',
      register: 'northern_ireland',
    });
    expect(parseCharityNumber('NI100123')).toEqual({
      ok: false,
      message: CHARITY_NUMBER_MESSAGES.northernIreland,
    });
    expect(parseCharityNumber('NIC1001234')).toEqual({
      ok: false,
      message: CHARITY_NUMBER_MESSAGES.northernIreland,
    });
  });

  it('says what to enter when the number is empty or of no register', () => {
    expect(parseCharityNumber('  ')).toEqual({ ok: false, message: CHARITY_NUMBER_MESSAGES.empty });
    expect(parseCharityNumber('AB123456')).toEqual({ ok: false, message: CHARITY_NUMBER_MESSAGES.unknown });
  });

  it('normalises the sign-up form: number, postcode and website', () => {
    const parsed = charitySignupInputSchema.parse({
      name: '  Banbury Books  ',
      registeredNumber: 'sc012345',
      contactName: 'Ann Smith',
      contactEmail: 'Ann@Example.org',
      addressLine1: '1 High Street',
      town: 'Banbury',
      postcode: 'ox165qa',
      website: 'banburybooks.org',
    });
    expect(parsed).toMatchObject({
      name: 'Banbury Books',
      registeredNumber: 'SC012345',
      contactEmail: 'ann@example.org',
      postcode: 'OX16 5QA',
      website: 'https://banburybooks.org',
      description: null,
      contactPhone: null,
    });
    const bad = charitySignupInputSchema.safeParse({
      name: 'B',
      registeredNumber: '123',
      contactName: '',
      contactEmail: 'nope',
      addressLine1: '',
      town: '',
      postcode: 'XYZ',
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((issue) => issue.message);
    expect(messages).toContain(CHARITY_NUMBER_MESSAGES.englandWales);
    expect(messages).toContain('Enter a UK postcode, like OX16 5QA');
  });
});

describe('bulk-listing rows', () => {
  const good = { isbn: '978-0-14-143951-8', condition: 'Very good', price: '£4.50' };

  it('reads a good row, with the defaults for what is left out', () => {
    expect(validateBulkRow(good)).toEqual({
      ok: true,
      item: {
        isbn13: '9780141439518',
        condition: 'very_good',
        priceMinor: 450,
        parcelSize: 'small',
        notes: null,
        donorReference: null,
        photoUrl: null,
        title: null,
        author: null,
        collector: {
          firstEdition: false,
          firstPrinting: false,
          signed: false,
          inscribed: false,
          exLibrary: false,
          bookClub: false,
          printOnDemand: false,
          dustJacket: null,
          bookmanGrade: null,
        },
      },
    });
    const full = validateBulkRow({
      ...good,
      isbn: '0141439513',
      condition: 'well_read',
      notes: ' Foxed edges ',
      donor_reference: 'D-00123',
      photo_url: 'https://example.org/p.jpg',
      parcel_size: 'Medium',
    });
    expect(full.ok && full.item).toMatchObject({
      isbn13: '9780141439518',
      condition: 'well_read',
      notes: 'Foxed edges',
      donorReference: 'D-00123',
      photoUrl: 'https://example.org/p.jpg',
      parcelSize: 'medium',
    });
  });

  it('reads the collectors’ columns: yes or no, the dust jacket’s grade and a collectable copy’s Bookman grade', () => {
    const row = validateBulkRow({
      ...good,
      first_edition: 'Yes',
      signed: 'y',
      inscribed: 'no',
      book_club: '',
      dust_jacket: 'near fine',
      bookman_grade: 'Very-Good',
    });
    expect(row.ok && row.item.collector).toEqual({
      firstEdition: true,
      firstPrinting: false,
      signed: true,
      inscribed: false,
      exLibrary: false,
      bookClub: false,
      printOnDemand: false,
      dustJacket: 'near_fine',
      bookmanGrade: 'very_good',
    });
    expect(validateBulkRow({ ...good, dust_jacket: 'None' })).toMatchObject({
      ok: true,
      item: { collector: { dustJacket: 'none' } },
    });
    expect(
      validateBulkRow({ ...good, signed: 'maybe', dust_jacket: 'tatty', bookman_grade: 'As new' }),
    ).toEqual({
      ok: false,
      errors: [
        BULK_MESSAGES.yesNo('signed', 'maybe'),
        BULK_MESSAGES.dustJacket('tatty'),
        BULK_MESSAGES.bookmanGrade('As new'),
      ],
    });
    // A Bookman grade on a copy that is not collectable is refused, as in the sell wizard.
    expect(validateBulkRow({ ...good, ex_library: 'yes', bookman_grade: 'Fine' })).toEqual({
      ok: false,
      errors: [BULK_MESSAGES.bookmanNotCollectable],
    });
  });

  it('reports every problem of a row, each saying what to write', () => {
    const result = validateBulkRow({
      isbn: '9780141439519',
      condition: 'Mint',
      price: '',
      donor_reference: 'D 001 <script>',
      photo_url: 'http://example.org/p.jpg',
      parcel_size: 'huge',
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        'ISBN: That ISBN’s last digit doesn’t match the others: check it against the book',
        BULK_MESSAGES.conditionUnknown('Mint'),
        BULK_MESSAGES.priceMissing,
        BULK_MESSAGES.donorReference,
        BULK_MESSAGES.photoUrl,
        BULK_MESSAGES.parcelSize('huge'),
      ],
    });
  });

  it('refuses a missing ISBN, a missing condition and prices out of range', () => {
    expect(validateBulkRow({ price: '1' })).toEqual({
      ok: false,
      errors: [BULK_MESSAGES.isbnMissing, BULK_MESSAGES.conditionMissing],
    });
    expect(validateBulkRow({ ...good, price: '0' })).toEqual({
      ok: false,
      errors: [BULK_MESSAGES.priceTooLow],
    });
    expect(validateBulkRow({ ...good, price: '10000.01' })).toEqual({
      ok: false,
      errors: [BULK_MESSAGES.priceTooHigh],
    });
    expect(validateBulkRow({ ...good, price: '4.505' })).toEqual({
      ok: false,
      errors: [BULK_MESSAGES.priceNotPence('4.505')],
    });
  });

  it('treats the same copy as the same row, whatever the ISBN form or the notes spacing', () => {
    const a = validateBulkRow({ ...good, notes: 'Signed  copy' });
    const b = validateBulkRow({ ...good, isbn: '0141439513', notes: 'signed copy' });
    const c = validateBulkRow({ ...good, notes: 'Unsigned copy' });
    if (!a.ok || !b.ok || !c.ok) throw new Error('rows should be valid');
    expect(bulkItemKey(a.item)).toBe(bulkItemKey(b.item));
    expect(bulkItemKey(a.item)).not.toBe(bulkItemKey(c.item));
    // A signed copy is not the same copy as an unsigned one.
    const d = validateBulkRow({ ...good, notes: 'Signed  copy', signed: 'yes' });
    if (!d.ok) throw new Error('row should be valid');
    expect(bulkItemKey(d.item)).not.toBe(bulkItemKey(a.item));
  });

  it('maps headers in any case, with aliases, and names missing and unknown columns', () => {
    expect(mapBulkHeader(['ISBN-13', 'Condition', 'Price', 'Donor Ref', 'problems'])).toEqual({
      columns: ['isbn', 'condition', 'price', 'donor_reference', null],
      missing: [],
      unknown: [],
    });
    expect(mapBulkHeader(['isbn', 'shelf'])).toEqual({
      columns: ['isbn', null],
      missing: ['condition', 'price'],
      unknown: ['shelf'],
    });
  });

  it('ships a template whose header maps completely and whose rows are valid', () => {
    const [header, ...rows] = BULK_TEMPLATE_CSV.split('\r\n');
    const mapped = mapBulkHeader(header!.split(','));
    expect(mapped.missing).toEqual([]);
    expect(mapped.unknown).toEqual([]);
    for (const row of rows) {
      const cells = Object.fromEntries(row.split(',').map((cell, i) => [mapped.columns[i], cell]));
      expect(validateBulkRow(cells).ok).toBe(true);
    }
  });
});

describe('UK tax years', () => {
  it('run from 6 April to 5 April in London time', () => {
    expect(taxYearOf(new Date('2026-04-05T22:59:59Z'))).toBe(2025); // 23:59 on 5 April, BST
    expect(taxYearOf(new Date('2026-04-05T23:00:00Z'))).toBe(2026); // midnight on 6 April, BST
    expect(taxYearOf(new Date('2026-01-15T12:00:00Z'))).toBe(2025);
    expect(taxYearOf(new Date('2026-12-31T23:59:59Z'))).toBe(2026);
  });

  it('are labelled by their two calendar years', () => {
    expect(taxYearLabel(2025)).toBe('2025-26');
    expect(taxYearLabel(2099)).toBe('2099-00');
  });
});

describe('returns (a charity’s or a private seller’s)', () => {
  const orderId = '8f5b7c52-6a5e-4a8e-9a0a-0d6c2f1e9b11';
  it('asks the buyer why they send it back, whoever sold it', () => {
    const short = requestReturnInputSchema.safeParse({ orderId, reason: 'no' });
    expect(short.error?.issues[0]?.message).toBe('Say why you are sending it back, in at least 5 characters');
    expect(
      requestReturnInputSchema.safeParse({ orderId, reason: 'I changed my mind', itemIds: [] }).error
        ?.issues[0]?.message,
    ).toBe('Choose at least one book to return');
    expect(requestReturnInputSchema.parse({ orderId, reason: '  I changed my mind ' }).reason).toBe(
      'I changed my mind',
    );
  });
  it('asks the seller or charity to tell the buyer why they decline', () => {
    expect(declineReasonSchema.safeParse('no').error?.issues[0]?.message).toBe(
      'Tell the buyer why, in at least 5 characters',
    );
    expect(declineReasonSchema.safeParse('x'.repeat(1001)).error?.issues[0]?.message).toBe(
      'Keep it to 1,000 characters',
    );
  });
});
