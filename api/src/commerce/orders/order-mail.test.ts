/**
 * The order emails' words for an order of one book and of several: the verb after the
 * books agrees with how many there are ("“Emma” has been delivered", "3 books (…) have been
 * delivered"), and nothing of the singular is left in a letter about several books.
 */
import {
  CANCELLATION_RIGHTS,
  DELIVERY_METHOD_LABELS,
  deliveryDateWords,
  orderDeliveryWords,
  PRIVATE_SELLER_NOTICE,
  type Trader,
} from '@reshelf/contracts';
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

function parties(
  titles: string[],
  trader: Trader | null = null,
  delivery: OrderParties['delivery'] = null,
): OrderParties {
  return {
    reference: 'RS-1234',
    title: titles.length > 1 ? `${titles.length} books` : (titles[0] as string),
    titles,
    totalMinor: 1500,
    payoutMinor: 1200,
    payoutReleaseAfter: null,
    buyer: { id: 'b', email: 'b@example.org', name: 'Bea' },
    seller: { id: 's', email: 's@example.org', name: 'Sam' },
    trader,
    delivery,
  };
}

const words = (titles: string[]) =>
  KINDS.flatMap((kind) =>
    letters(kind, parties(titles), 'https://reshelf.example', 'o1', 'Tracked by Royal Mail').flatMap(
      (letter) => [letter.subject, ...letter.lines],
    ),
  );

describe('order emails', () => {
  it('confirm the buyer’s delivery choice: the method, the locker or parcel shop and the expected date', () => {
    const point = {
      id: 'INPOST-EC1A01',
      network: 'inpost' as const,
      kind: 'locker' as const,
      name: 'InPost Locker – Little Britain',
      addressLine: '1 Little Britain',
      town: 'London',
      postcode: 'EC1A 9WB',
      latitude: 51.5,
      longitude: -0.1,
      openingHours: [],
    };
    const delivery = {
      method: 'drop_off' as const,
      band: 'large_letter' as const,
      dropOffPoint: point,
      expectedDeliveryOn: '2026-12-08',
    };
    const [buyer, seller] = letters(
      'placed',
      parties(['Emma'], null, delivery),
      'https://reshelf.example',
      'o1',
      null,
    );
    const words = orderDeliveryWords(delivery);
    expect(buyer?.lines).toContain(`${words.method}: ${words.point}. ${words.expected}.`);
    expect(words.expected).toBe(`Expected by ${deliveryDateWords('2026-12-08')}`);
    expect(deliveryDateWords('2026-12-08')).toBe('Tuesday 8 December');
    expect(seller?.lines.join(' ')).not.toContain(point.name);
    const home = letters(
      'placed',
      parties(['Emma'], null, { ...delivery, method: 'home', dropOffPoint: null }),
      'https://reshelf.example',
      'o1',
      null,
    );
    expect(home[0]?.lines).toContain(`${DELIVERY_METHOD_LABELS.home}. ${words.expected}.`);
  });

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

describe('the order confirmation (a durable medium, Consumer Contracts Regulations reg. 16)', () => {
  const trader: Trader = {
    kind: 'business',
    name: 'Kennet Rare Books',
    address: '4 Wharf Street, Newbury, RG14 5AP',
    registration: { label: 'Company number', number: '01234567' },
    vatNumber: null,
    email: 'shop@kennet.test',
  };
  const confirmation = (who: Trader | null) => {
    const [toBuyer] = letters('placed', parties(['Emma'], who), 'https://reshelf.example', 'o1', null);
    return toBuyer!.lines.join('\n');
  };

  it('from a trader carries who they are, the cancellation rights and the model cancellation form', () => {
    const text = confirmation(trader);
    expect(text).toContain(
      'Sold by Kennet Rare Books, 4 Wharf Street, Newbury, RG14 5AP (Company number: 01234567)',
    );
    for (const right of CANCELLATION_RIGHTS) expect(text).toContain(right);
    expect(text).toContain('Model cancellation form');
    expect(text).toContain('To: Kennet Rare Books, 4 Wharf Street, Newbury, RG14 5AP, shop@kennet.test');
  });

  it('from a private seller says the rights do not apply', () => {
    const text = confirmation(null);
    expect(text).toContain(PRIVATE_SELLER_NOTICE);
    expect(text).not.toContain('Model cancellation form');
  });
});
