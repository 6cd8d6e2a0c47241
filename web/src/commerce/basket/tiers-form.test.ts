import { describe, expect, it } from 'vitest';
import { tiersFormSchema } from './BundleTiersSection.tsx';

function issues(tiers: { minBooks: string; percent: string }[]) {
  const result = tiersFormSchema.safeParse({ tiers });
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('the bundle tiers form', () => {
  it('turns the inputs into tiers, and no tiers into "off"', () => {
    expect(
      tiersFormSchema.parse({
        tiers: [
          { minBooks: '2', percent: '5' },
          { minBooks: ' 3 ', percent: '10' },
        ],
      }),
    ).toEqual({
      tiers: [
        { minBooks: 2, percent: 5 },
        { minBooks: 3, percent: 10 },
      ],
    });
    expect(tiersFormSchema.parse({ tiers: [] })).toEqual({ tiers: [] });
  });

  it('puts each refusal on its field: empty, out of range, not rising', () => {
    expect(issues([{ minBooks: '', percent: '5' }])).toEqual([
      ['tiers.0.minBooks', 'Enter the number of books'],
    ]);
    expect(issues([{ minBooks: '1', percent: '60' }])).toEqual([
      ['tiers.0.minBooks', 'A tier starts at 2 books or more'],
      ['tiers.0.percent', 'The discount is at most 50%'],
    ]);
    expect(
      issues([
        { minBooks: '3', percent: '10' },
        { minBooks: '3', percent: '10' },
      ]),
    ).toEqual([
      ['tiers.1.minBooks', 'Each tier needs more books than the one before (more than 3)'],
      ['tiers.1.percent', 'Each tier needs a bigger discount than the one before (more than 10%)'],
    ]);
  });

  it('refuses a fourth tier', () => {
    const four = [2, 3, 4, 5].map((n) => ({ minBooks: String(n), percent: String(n) }));
    expect(issues(four)).toEqual([['tiers', 'Set at most 3 tiers']]);
  });
});
