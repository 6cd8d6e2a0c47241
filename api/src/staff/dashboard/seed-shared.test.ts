/**
 * The Edge Functions cannot import the API's code, so seed-openlibrary-recent keeps its own
 * copies of three things; these tests keep each copy in step with the original.
 */
import { readFileSync } from 'node:fs';
import { isbn13To10 as contractsIsbn13To10, normaliseIsbn } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { DEMO_SEED_PEOPLE, isbn13To10, toIsbn13 } from '../../../../supabase/functions/_shared/seed.ts';
import { DEMO_BUYERS, DEMO_CHARITIES, DEMO_SELLERS } from '../../seed/catalogue-demo.ts';

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

describe('seed-openlibrary-recent copies', () => {
  it('bundles the same snapshot of real books as the API', () => {
    expect(read('../../../../supabase/functions/_shared/books-snapshot.json')).toEqual(
      read('../../seed/books-snapshot.json'),
    );
  });

  it('sells and buys as the first-start catalogue’s demo people', () => {
    const person = (p: { email: string; displayName: string; town: string }) => ({
      email: p.email,
      display_name: p.displayName,
      town: p.town,
    });
    expect(DEMO_SEED_PEOPLE.sellers).toEqual(DEMO_SELLERS.map(person));
    expect(DEMO_SEED_PEOPLE.buyers).toEqual(DEMO_BUYERS.map(person));
    expect(DEMO_SEED_PEOPLE.charities).toEqual(
      DEMO_CHARITIES.map((c) => ({
        ...person(c),
        name: c.name,
        slug: c.slug,
        registered_number: c.registeredNumber,
        description: c.description,
        website: c.website,
      })),
    );
  });

  it('reads ISBNs as @reshelf/contracts does', () => {
    for (const raw of [
      '9780141439518',
      '978-0-14-143951-8',
      '0141439513',
      '080442957X',
      '9790000000001',
      '123',
    ]) {
      expect(toIsbn13(raw), raw).toBe(normaliseIsbn(raw));
    }
    for (const isbn of ['9780141439518', '9798886451740']) {
      expect(isbn13To10(isbn)).toBe(contractsIsbn13To10(isbn));
    }
  });
});
