import { describe, expect, it } from 'vitest';
import { businessSellerInputSchema, parseCompanyNumber, parseVatNumber } from './business-sellers.ts';
import { CANCELLATION_RIGHTS, CANCELLATION_RULES, orderButtonLabel } from './traders.ts';

describe('a business seller’s declaration', () => {
  it('reads company and VAT numbers as written, and refuses others', () => {
    expect(parseCompanyNumber('1234567')).toBe('01234567');
    expect(parseCompanyNumber('sc 123456')).toBe('SC123456');
    expect(parseCompanyNumber('XX123456')).toBeNull();
    expect(parseCompanyNumber('123456789')).toBeNull();
    expect(parseVatNumber('GB 123 4567 89')).toBe('GB123456789');
    expect(parseVatNumber('123456789012')).toBe('GB123456789012');
    expect(parseVatNumber('FR123456789')).toBeNull();
  });

  it('refuses a PO box or Freepost address, in either line', () => {
    const base = {
      tradingName: 'Books Ltd',
      isCompany: false,
      addressLine1: '1 High Street',
      town: 'Ely',
      postcode: 'CB7 4JU',
      contactEmail: 'a@b.test',
    };
    expect(businessSellerInputSchema.safeParse(base).success).toBe(true);
    for (const line of ['PO Box 12', 'P.O. Box 9', 'Freepost RTXX-1234']) {
      const first = businessSellerInputSchema.safeParse({ ...base, addressLine1: line });
      expect(first.error?.issues.map((issue) => issue.message)).toEqual([
        'Give the address where you trade from, not a PO box or Freepost address',
      ]);
      expect(businessSellerInputSchema.safeParse({ ...base, addressLine2: line }).success).toBe(false);
    }
    // "Box Hill" is a place, not a PO box.
    expect(businessSellerInputSchema.safeParse({ ...base, addressLine1: '2 Box Hill Road' }).success).toBe(
      true,
    );
  });
});

describe('the cancellation texts', () => {
  it('are written from the numbers, and the order button says the buyer pays', () => {
    expect(CANCELLATION_RIGHTS[0]).toContain(`${CANCELLATION_RULES.cancelDays} days of delivery`);
    expect(CANCELLATION_RIGHTS[1]).toContain(`${CANCELLATION_RULES.sendBackDays} more days`);
    expect(CANCELLATION_RIGHTS[2]).toContain(`within ${CANCELLATION_RULES.refundDays} days`);
    expect(orderButtonLabel(1234)).toBe('Place order and pay £12.34');
  });
});
