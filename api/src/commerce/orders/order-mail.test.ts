/**
 * The order emails' words for an order of one book and of several: the verb after the
 * books agrees with how many there are ("“Emma” has been delivered", "3 books (…) have been
 * delivered"), and nothing of the singular is left in a letter about several books.
 */
import { describe, expect, it } from 'vitest';
import { letters, type OrderMailKind, type OrderParties } from './order-mail.ts';

const KINDS: OrderMailKind[] = [
  'placed',
  'dispatched',
  'delivered',
  'completed',
  'cancelled',
  'dispute_opened',
  'dispute_resolved_refund',
  'dispute_resolved_release',
  'dispute_withdrawn',
  'payout_released',
];

function parties(titles: string[]): OrderParties {
  return {
    reference: 'RS-1234',
    title: titles.length > 1 ? `${titles.length} books` : (titles[0] as string),
    titles,
    totalMinor: 1500,
    payoutMinor: 1200,
    payoutReleaseAfter: null,
    buyer: { id: 'b', email: 'b@example.org', name: 'Bea' },
    seller: { id: 's', email: 's@example.org', name: 'Sam' },
  };
}

const words = (titles: string[]) =>
  KINDS.flatMap((kind) =>
    letters(kind, parties(titles), 'https://reshelf.example', 'o1', 'Tracked by Royal Mail').flatMap(
      (letter) => [letter.subject, ...letter.lines],
    ),
  );

describe('order emails', () => {
  it('say the books of an order of several "have" sold, been dispatched and been delivered', () => {
    const several = words(['North and South', 'Cranford', 'Wives and Daughters']).join('\n');
    expect(several).toContain(
      '3 books (“North and South”, “Cranford” and “Wives and Daughters”) have been delivered',
    );
    expect(several).toContain(') have sold');
    expect(several).toContain(') have been dispatched');
    expect(several).not.toMatch(/\) has (sold|been dispatched|been delivered)/);
    expect(several).not.toMatch(/3 books — please send it\b/);
  });

  it('say one book "has"', () => {
    const one = words(['Emma']).join('\n');
    expect(one).toContain('“Emma” has been delivered');
    expect(one).toContain('“Emma” has sold');
    expect(one).toContain('You sold Emma — please send it');
  });
});
