/**
 * Set-based seed for the benchmark, at one of the sizes of options.ts (100k: 2,000 sellers,
 * 60 charities, 25,000 books — the real snapshot plus generated titles and authors — and
 * 100,000 listings): each table is filled by one `insert … select … from generate_series`,
 * never row by row from here. Listings go in through the same triggers as production, so
 * their search columns are real.
 */
import type pg from 'pg';
import { SNAPSHOT_BOOKS } from '../../api/src/seed/books.ts';
import type { BenchSize } from './options.ts';

export const ADJECTIVES = [
  'Silent',
  'Hidden',
  'Last',
  'Burning',
  'Golden',
  'Broken',
  'Winter',
  'Secret',
  'Lost',
  'Forgotten',
  'Distant',
  'Quiet',
  'Painted',
  'Midnight',
  'Northern',
  'Salt',
  'Paper',
  'Glass',
  'Iron',
  'Wild',
  'Little',
  'Crooked',
  'Drowned',
  'Borrowed',
  'Velvet',
  'Hollow',
  'Scarlet',
  'Bitter',
  'Gentle',
  'Restless',
  'Summer',
  'Shattered',
  'Wandering',
  'Invisible',
  'Ancient',
  'Sleeping',
  'Falling',
  'Electric',
  'Empty',
  'Open',
];
export const NOUNS = [
  'Harbour',
  'Garden',
  'Orchard',
  'Lighthouse',
  'Kingdom',
  'River',
  'Letters',
  'Island',
  'Library',
  'House',
  'Daughter',
  'Station',
  'Forest',
  'Mirror',
  'Shore',
  'Winter',
  'Crown',
  'Hours',
  'Promise',
  'Sky',
  'Cartographer',
  'Orphan',
  'Archive',
  'Tide',
  'Bridge',
  'Sparrow',
  'Valley',
  'Chapel',
  'Map',
  'Widow',
  'Meadow',
  'Storm',
  'Key',
  'Inheritance',
  'Clockmaker',
  'Fox',
  'Moor',
  'Voyage',
  'Sister',
  'Stranger',
];
export const PLACES = [
  'Cornwall',
  'the Fens',
  'Skye',
  'Whitby',
  'Lindisfarne',
  'Bath',
  'the Dales',
  'Orkney',
  'Ludlow',
  'Rye',
  'Aldeburgh',
  'the Wolds',
  'Tintagel',
  'Harris',
  'Kielder',
  'Dartmoor',
];
export const FIRST = [
  'Eleanor',
  'James',
  'Margaret',
  'Thomas',
  'Harriet',
  'Samuel',
  'Alice',
  'William',
  'Clara',
  'Oliver',
  'Imogen',
  'Rupert',
  'Freya',
  'Arthur',
  'Isla',
  'Felix',
  'Nadia',
  'Hugo',
  'Priya',
  'Callum',
  'Rosalind',
  'Dominic',
  'Esther',
  'Gideon',
  'Maeve',
  'Owen',
  'Tamsin',
  'Rhys',
  'Bethan',
  'Declan',
];
export const LAST = [
  'Ashworth',
  'Blackwood',
  'Carrow',
  'Dunmore',
  'Ellery',
  'Fairbairn',
  'Greaves',
  'Hollis',
  'Ingram',
  'Jessop',
  'Kettering',
  'Lockhart',
  'Marlowe',
  'Northcott',
  'Osei',
  'Pennington',
  'Quayle',
  'Rainsford',
  'Sharma',
  'Thackeray',
  'Underwood',
  'Vance',
  'Whitlock',
  'Yardley',
  'Achebe',
  'Byrne',
  'Chaudhry',
  'Devereux',
  'Okafor',
  'Nakamura',
];
export const PHRASES = [
  'a family secret that refuses to stay buried',
  'a summer that changes everything',
  'the sea and the people who live beside it',
  'grief, friendship and second chances',
  'a small town with a long memory',
  'an unlikely friendship across the generations',
  'a journey north in search of the truth',
  'love, loss and the stories we tell ourselves',
  'a crime nobody wants solved',
  'the last days of a great country house',
];

const literal = (values: readonly string[]) =>
  `(array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',')}])`;

export async function seedBench(
  client: pg.Client,
  size: BenchSize,
  log: (line: string) => void,
): Promise<void> {
  const { sellers, charities, books, listings } = size;
  if (charities > sellers || books <= SNAPSHOT_BOOKS.length) {
    throw new Error(
      'the bench needs at least as many sellers as charities, and more books than the snapshot',
    );
  }
  let started = Date.now();
  const step = (name: string) => {
    log(`  ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    started = Date.now();
  };

  await client.query(`
    insert into auth.users (id, email, created_at)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'seller' || i || '@bench.reshelf.test',
           now() - (i || ' hours')::interval
    from generate_series(1, ${sellers}) i;
    insert into public.profiles (id, display_name, town, created_at)
    select u.id, ${literal(FIRST)}[1 + (n % ${FIRST.length})] || '''s books',
           ${literal(['Bristol', 'York', 'Leeds', 'Norwich', 'Exeter', 'Durham', 'Cardiff', 'Glasgow'])}[1 + (n % 8)],
           u.created_at
    from (select id, created_at, row_number() over (order by id) as n from auth.users) u
    on conflict (id) do update
      set display_name = excluded.display_name, town = excluded.town, created_at = excluded.created_at;
    insert into public.charities (slug, name, registered_number, status, town, owner_id, description)
    select 'bench-charity-' || i, 'Bench Charity Books ' || i, (1100000 + i)::text, 'approved',
           ${literal(PLACES)}[1 + (i % ${PLACES.length})],
           ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
           'Donated books sold to fund our work.'
    from generate_series(1, ${charities}) i;`);
  step(`${sellers} sellers, ${charities} charities`);

  const values = SNAPSHOT_BOOKS.map(
    (book, i) =>
      `('${book.isbn13}', '${book.title.replaceAll("'", "''")}', array[${book.authors.map((a) => `'${a.replaceAll("'", "''")}'`).join(',')}], '${book.description.replaceAll("'", "''")}', '${book.category}', ${i})`,
  );
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from public.listings');
  if (rows[0]?.n) throw new Error('the bench seeds an empty catalogue (it found listings)');
  await client.query(`
    insert into public.books (isbn13, title, authors, description, category_id, published_year)
    select v.isbn13, v.title, v.authors, v.description, c.id, 2000
    from (values ${values.join(',')}) v(isbn13, title, authors, description, category, n)
    join public.categories c on c.slug = v.category;
    insert into public.books (isbn13, title, authors, description, category_id, published_year, page_count)
    select '979' || lpad(i::text, 10, '0'),
      case i % 4
        when 0 then 'The ' || a.w || ' ' || n.w
        when 1 then n.w || ' of ' || p.w
        when 2 then 'The ' || n.w || '''s ' || n2.w
        else a.w || ' ' || n.w
      end,
      array[f.w || ' ' || l.w],
      'A novel about ' || ph.w || '. Set in ' || p.w || ', it follows the ' || lower(n.w) || ' and the ' || lower(n2.w) || '.',
      cat.id,
      1950 + (i % 75), 120 + (i * 37 % 600)
    from generate_series(1, ${books - SNAPSHOT_BOOKS.length}) i
    join (select id, row_number() over (order by position) - 1 as k from public.categories) cat on cat.k = i % 16
    cross join lateral (select ${literal(ADJECTIVES)}[1 + (i % ${ADJECTIVES.length})] as w) a
    cross join lateral (select ${literal(NOUNS)}[1 + ((i / ${ADJECTIVES.length}) % ${NOUNS.length})] as w) n
    cross join lateral (select ${literal(NOUNS)}[1 + ((i * 7) % ${NOUNS.length})] as w) n2
    cross join lateral (select ${literal(PLACES)}[1 + ((i / 3) % ${PLACES.length})] as w) p
    cross join lateral (select ${literal(FIRST)}[1 + ((i * 13) % ${FIRST.length})] as w) f
    cross join lateral (select ${literal(LAST)}[1 + ((i * 17) % ${LAST.length})] as w) l
    cross join lateral (select ${literal(PHRASES)}[1 + ((i * 3) % ${PHRASES.length})] as w) ph;
    -- The per-row trigger copies a book's genres to its listings; there are none yet, so it
    -- would only run one empty UPDATE per row (most of this step's time at 1m). Same result.
    alter table public.book_genres disable trigger book_genres_refresh_listings;
    insert into public.book_genres (book_id, genre_id)
    select b.id, g.id from (select id, row_number() over (order by id) as n from public.books) b
    join (select id, row_number() over (order by position) - 1 as k from public.genres) g
      on g.k = b.n % 16 or g.k = (b.n * 7) % 16;
    alter table public.book_genres enable trigger book_genres_refresh_listings;`);
  step(`${books} books with genres`);

  await client.query(`
    with b as (select id, row_number() over (order by id) - 1 as n from public.books),
         s as (select id, row_number() over (order by id) - 1 as n from public.profiles),
         ch as (select id, owner_id from public.charities)
    insert into public.listings (seller_id, charity_id, book_id, slug, status, condition, price_minor, parcel_size,
                                 format, description, published_at, created_at)
    select s.id, ch.id, b.id, 'bench-' || i,
           case when i % 20 = 0 then 'sold' else 'active' end,
           (array['like_new', 'very_good', 'very_good', 'good', 'good', 'well_read'])[1 + (i % 6)],
           100 + ((i * 7919) % 2900),
           (array['small', 'small', 'medium', 'large'])[1 + (i % 4)],
           -- Advanced search's format: most copies say, some do not.
           (array['paperback', 'paperback', 'hardback', null])[1 + ((i / 3) % 4)],
           (array['Read once, spine uncreased.', 'Light shelf wear; pages clean.', 'Reading creases; a sound copy.',
                  'Well loved but complete.'])[1 + (i % 4)],
           now() - (i * 25 || ' seconds')::interval, now() - (i * 25 || ' seconds')::interval
    from generate_series(1, ${listings}) i
    join b on b.n = (i * 7919) % ${books}
    join s on s.n = i % ${sellers}
    left join ch on ch.owner_id = s.id;`);
  step(`${listings} listings (through the search triggers)`);

  await client.query('vacuum analyze');
  step('vacuum analyze');
}
