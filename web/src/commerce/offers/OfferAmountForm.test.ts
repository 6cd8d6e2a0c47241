import { describe, expect, it } from 'vitest';
import { offerAmountSchema } from './OfferAmountForm.tsx';

const limits = {
  minMinor: 250,
  maxMinor: 499,
  tooLow: 'Offer at least £2.50',
  tooHigh: 'That is the asking price or more',
};
const schema = offerAmountSchema(limits);

function problems(input: { amount: string; message: string }): Record<string, string | undefined> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('the offer amount form', () => {
  it('turns pounds into pence and leaves an empty message out', () => {
    expect(schema.parse({ amount: '4.50', message: '   ' })).toEqual({ amount: 450, message: undefined });
    expect(schema.parse({ amount: '2.50', message: ' Cash today? ' })).toEqual({
      amount: 250,
      message: 'Cash today?',
    });
  });

  it('says what is wrong with the amount, against the limits given', () => {
    expect(problems({ amount: '', message: '' }).amount).toBe('Enter an amount in pounds, like 4.50');
    expect(problems({ amount: 'four', message: '' }).amount).toBe('Enter an amount in pounds, like 4.50');
    expect(problems({ amount: '0', message: '' }).amount).toBe('Enter an amount in pounds, like 4.50');
    expect(problems({ amount: '2.49', message: '' }).amount).toBe(limits.tooLow);
    expect(problems({ amount: '4.99', message: '' })).toEqual({});
    expect(problems({ amount: '5.00', message: '' }).amount).toBe(limits.tooHigh);
  });

  it('keeps the message to 500 characters (after trimming)', () => {
    expect(problems({ amount: '3', message: `  ${'a'.repeat(500)}  ` })).toEqual({});
    expect(problems({ amount: '3', message: 'a'.repeat(501) }).message).toBe(
      'Keep your message to 500 characters',
    );
  });
});
