/**
 * Demo marketplace for a first start: private sellers and charities (with their users), the
 * snapshot's books on sale in varied condition and price, a few sold copies with orders,
 * views and wishlist saves for trending, and staff picks. Deterministic: the same data on
 * every machine, so browser tests and screenshots can rely on it.
 *
 * Users are created without passwords; the sign-in work gives the demo accounts theirs.
 */
import { createHash } from 'node:crypto';
import { type Condition, type ParcelSize, slugify } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { type SeedBook, SNAPSHOT_BOOKS, upsertSnapshotBooks } from './books.ts';
import { seedSale } from './seed-sale.ts';

export interface DemoPerson {
  email: string;
  displayName: string;
  town: string;
  bio: string;
}

export const DEMO_SELLERS: readonly DemoPerson[] = [
  {
    email: 'seller@reshelf.test',
    displayName: "Sam's Shelf",
    town: 'Bristol',
    bio: 'Clearing out a lifetime of paperbacks, mostly modern fiction and crime. Every book is packed in a recycled mailer and posted within two working days.',
  },
  {
    email: 'margaret@reshelf.test',
    displayName: "Margaret's Bookcase",
    town: 'York',
    bio: 'Retired English teacher with more classics than shelves. Happy to answer questions about editions.',
  },
  {
    email: 'tom@reshelf.test',
    displayName: 'Tom Reads Sci-Fi',
    town: 'Manchester',
    bio: 'Science fiction and fantasy, read once and looked after. I post on Mondays and Thursdays.',
  },
  {
    email: 'attic@reshelf.test',
    displayName: 'The Attic Library',
    town: 'Norwich',
    bio: 'Family bookshelves sorted after a house move: children’s books, cookery and a bit of everything.',
  },
  {
    email: 'priya@reshelf.test',
    displayName: "Priya's Picks",
    town: 'Leicester',
    bio: 'Book-club reads and non-fiction. Smoke-free, pet-free home.',
  },
];

export interface DemoCharity extends DemoPerson {
  name: string;
  slug: string;
  registeredNumber: string;
  /** Where the charity trades from (with `town`): shown before the order. */
  addressLine1: string;
  postcode: string;
  description: string;
  website: string;
}

export const DEMO_CHARITIES: readonly DemoCharity[] = [
  {
    email: 'charity@reshelf.test',
    displayName: 'Cherwell Valley Hospice Books',
    name: 'Cherwell Valley Hospice Books',
    slug: 'cherwell-valley-hospice-books',
    registeredNumber: '1148392',
    town: 'Banbury',
    addressLine1: '14 Parsons Street',
    postcode: 'OX16 5LW',
    bio: 'The bookshop of Cherwell Valley Hospice.',
    description:
      'Every book we sell is donated by people across north Oxfordshire, and every penny of profit pays for hospice nursing at home and on our ward. Our volunteers sort, clean and check each book before it is listed.',
    website: 'https://cherwell-valley-hospice.example',
  },
  {
    email: 'pennine@reshelf.test',
    displayName: 'Pennine Animal Rescue Books',
    name: 'Pennine Animal Rescue Books',
    slug: 'pennine-animal-rescue-books',
    registeredNumber: '1093517',
    town: 'Hebden Bridge',
    addressLine1: '3 Market Street',
    postcode: 'HX7 6AA',
    bio: 'Second-hand books raising money for rescued cats, dogs and ponies.',
    description:
      'Pennine Animal Rescue rehomes more than four hundred animals a year from our centre above the Calder Valley. Our book volunteers list donated books online so that readers anywhere in the UK can help.',
    website: 'https://pennine-animal-rescue.example',
  },
  {
    email: 'leith@reshelf.test',
    displayName: 'Leith Literacy Trust',
    name: 'Leith Literacy Trust',
    slug: 'leith-literacy-trust',
    registeredNumber: 'SC047215',
    town: 'Edinburgh',
    addressLine1: '61 Great Junction Street',
    postcode: 'EH6 5HX',
    bio: 'Selling donated books to fund reading programmes for children in Leith.',
    description:
      'We run after-school reading clubs and give free books to families in Leith and north Edinburgh. Donated books that our clubs cannot use are sold here, and the money buys new ones for children who have none.',
    website: 'https://leith-literacy.example',
  },
];

export const DEMO_BUYERS: readonly DemoPerson[] = [
  {
    email: 'reader@reshelf.test',
    displayName: 'Alex Morgan',
    town: 'Cardiff',
    bio: 'Always looking for the next good book.',
  },
  {
    email: 'bookworm@reshelf.test',
    displayName: 'Jo Whitfield',
    town: 'Brighton',
    bio: 'Crime, classics and anything with a map in the front.',
  },
];

const CONDITION_NOTES: Record<Condition, string[]> = {
  like_new: [
    'Read once, spine uncreased, pages clean and bright.',
    'Bought as a gift and never read. As new.',
    'No marks, no creases, no inscriptions. Looks unread.',
  ],
  very_good: [
    'Light shelf wear to the cover edges; text clean throughout.',
    'Gently read. Faint crease on the spine, otherwise very good.',
    'A little fading on the spine from sunlight; pages clean.',
  ],
  good: [
    'Reading creases to the spine and slight wear to the corners. All pages present and clean.',
    'Previous owner’s name inside the front cover; otherwise a good, sound copy.',
    'Some rubbing to the cover and a small bump to one corner. Text unmarked.',
  ],
  well_read: [
    'Well loved: heavy spine creases and tanned pages, but complete and perfectly readable.',
    'Cover worn and slightly curled, a few pencil notes in the margins. A reading copy.',
    'Much read and a little tired, with a coffee ring on the back cover. Priced to match.',
  ],
};

const SELLER_WORDS = [
  'Posted in a padded envelope within two working days.',
  'Happy to combine postage if you buy more than one of my books.',
  'From a smoke-free home.',
  'A lovely copy of a book I’m sad to part with.',
  'Ask me anything about the edition before you buy.',
  'Our volunteers have checked every page.',
];

/** A stable pseudo-random number in [0, 1) for a key, so the seed is the same everywhere. */
function pick(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

function choose<T>(key: string, items: readonly T[]): T {
  return items[Math.floor(pick(key) * items.length)]!;
}

function listingSlug(book: SeedBook, copy: number): string {
  const suffix = createHash('sha256').update(`${book.isbn13}:${copy}`).digest('hex').slice(0, 6);
  return `${slugify(book.title)}-${suffix}`;
}

const CONDITIONS_BY_WEIGHT: Condition[] = [
  'like_new',
  'very_good',
  'very_good',
  'very_good',
  'good',
  'good',
  'good',
  'well_read',
];

function parcelFor(book: SeedBook): ParcelSize {
  const pages = book.pageCount ?? 300;
  if (book.category === 'cookery' || pages > 600) return 'large';
  if (pages > 350) return 'medium';
  return 'small';
}

function priceFor(book: SeedBook, condition: Condition, key: string): number {
  const base = { like_new: 700, very_good: 500, good: 375, well_read: 225 }[condition];
  const size = Math.round((book.pageCount ?? 300) / 100) * 40;
  const wobble = Math.floor(pick(`${key}:price`) * 300);
  // Prices that end in 0, 49, 50 or 99 pence, as people price things.
  const raw = base + size + wobble;
  const endings = [0, 49, 50, 99];
  return Math.floor(raw / 100) * 100 + choose(`${key}:ending`, endings);
}

/**
 * A demo person: the account is reused when it exists already (the demo accounts, with
 * their passwords, are seeded first); otherwise created without a password. The profile
 * is made by the sign-up trigger and completed here.
 */
async function createPerson(db: Database, person: DemoPerson, createdDaysAgo: number): Promise<string> {
  const created = new Date(Date.now() - createdDaysAgo * 86_400_000);
  const existing = await db
    .selectFrom('auth.users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', person.email.toLowerCase())
    .executeTakeFirst();
  const id =
    existing?.id ??
    (
      await db
        .insertInto('auth.users')
        .values({
          email: person.email,
          encrypted_password: null,
          email_confirmed_at: created,
          raw_user_meta_data: JSON.stringify({ display_name: person.displayName }),
          created_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  await db
    .updateTable('profiles')
    .set({
      display_name: person.displayName,
      town: person.town,
      bio: person.bio,
      created_at: created,
      signup_completed_at: created,
      onboarded_at: created,
    })
    .where('id', '=', id)
    .execute();
  return id;
}

/**
 * The copies the demo catalogue lists: one of every snapshot book, a second of every fifth, or
 * the number a book names (`demoCopies`: 0 for a series volume no one is selling).
 */
function plannedCopies(): { book: SeedBook; copy: number }[] {
  return SNAPSHOT_BOOKS.flatMap((book, index) =>
    Array.from({ length: book.demoCopies ?? (index % 5 === 0 ? 2 : 1) }, (_, copy) => ({ book, copy })),
  );
}

/** The slug of a snapshot book's demo copy (its first, or the one named), for later seed parts. */
export function catalogueDemoSlug(isbn13: string, copy = 0): string {
  const book = SNAPSHOT_BOOKS.find((candidate) => candidate.isbn13 === isbn13);
  if (!book) throw new Error(`${isbn13} is not a snapshot book`);
  return listingSlug(book, copy);
}

/** The slugs of the demo catalogue's listings (deterministic), so later work can find them. */
export function catalogueDemoSlugs(): string[] {
  return plannedCopies().map(({ book, copy }) => listingSlug(book, copy));
}

export interface CatalogueDemoReport extends Record<string, unknown> {
  sellers: number;
  charities: number;
  books: number;
  activeListings: number;
  soldListings: number;
  staffPicks: number;
}

export async function seedCatalogueDemo(db: Database): Promise<CatalogueDemoReport> {
  const bookIds = await upsertSnapshotBooks(db);

  const sellerIds: string[] = [];
  for (const [index, seller] of DEMO_SELLERS.entries()) {
    sellerIds.push(await createPerson(db, seller, 400 - index * 60));
  }
  const charityOwners: { userId: string; charityId: string }[] = [];
  for (const [index, charity] of DEMO_CHARITIES.entries()) {
    const userId = await createPerson(db, charity, 300 - index * 45);
    const row = await db
      .insertInto('charities')
      .values({
        slug: charity.slug,
        name: charity.name,
        registered_number: charity.registeredNumber,
        status: 'approved',
        town: charity.town,
        // Charities are traders: buyers see the address before the order (decision 0073).
        address_line1: charity.addressLine1,
        postcode: charity.postcode,
        description: charity.description,
        website: charity.website,
        owner_id: userId,
        approved_at: new Date(Date.now() - (280 - index * 45) * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    charityOwners.push({ userId, charityId: row.id });
  }
  const buyerIds: string[] = [];
  for (const [index, buyer] of DEMO_BUYERS.entries()) {
    buyerIds.push(await createPerson(db, buyer, 200 - index * 30));
  }

  // One copy of every snapshot book, a second copy of every fifth; sellers in turn, every
  // third listing from a charity. Published over the last five weeks.
  type Planned = {
    book: SeedBook;
    copy: number;
    sellerId: string;
    charityId: string | null;
  };
  const planned: Planned[] = plannedCopies().map(({ book, copy }, n) => {
    const charity = n % 3 === 2 ? charityOwners[Math.floor(n / 3) % charityOwners.length]! : null;
    return {
      book,
      copy,
      sellerId: charity ? charity.userId : sellerIds[n % sellerIds.length]!,
      charityId: charity?.charityId ?? null,
    };
  });

  // Listed in a mixed order over the last five weeks, so "recently added" is varied.
  const recency = new Map(
    [...planned.keys()]
      .sort((a, b) => pick(`order:${a}`) - pick(`order:${b}`))
      .map((plannedIndex, rank) => [plannedIndex, rank]),
  );
  const listingRows = planned.map((plan, n) => {
    const key = `${plan.book.isbn13}:${plan.copy}`;
    const condition = choose(`${key}:condition`, CONDITIONS_BY_WEIGHT);
    const exLibrary = plan.charityId !== null && pick(`${key}:exlib`) < 0.25;
    const notes = choose(`${key}:notes`, CONDITION_NOTES[condition]);
    const words = plan.charityId ? SELLER_WORDS[5]! : choose(`${key}:words`, SELLER_WORDS.slice(0, 5));
    const hoursAgo = 2 + recency.get(n)! * 9 + Math.floor(pick(`${key}:time`) * 8);
    return {
      seller_id: plan.sellerId,
      charity_id: plan.charityId,
      book_id: bookIds.get(plan.book.isbn13)!,
      slug: listingSlug(plan.book, plan.copy),
      status: 'active',
      condition,
      ex_library: exLibrary,
      condition_notes: exLibrary ? `${notes} Ex-library copy with stamps and a plastic jacket.` : notes,
      description: words,
      price_minor: priceFor(plan.book, condition, key),
      parcel_size: parcelFor(plan.book),
      // Charities record who donated each book, for Retail Gift Aid (a few regular donors).
      donor_reference: plan.charityId ? `D-${String(101 + (n % 7)).padStart(5, '0')}` : null,
      published_at: new Date(Date.now() - hoursAgo * 3_600_000),
      created_at: new Date(Date.now() - hoursAgo * 3_600_000),
    };
  });
  const listings = await db
    .insertInto('listings')
    .values(listingRows)
    .returning(['id', 'slug', 'book_id', 'seller_id', 'charity_id', 'price_minor', 'parcel_size'])
    .execute();

  // A few copies sold in the last fortnight (sales feed trending; the pages say "sold").
  const soldSlugs = listings.filter((_, index) => index % 17 === 5).slice(0, 4);
  for (const [index, listing] of soldSlugs.entries()) {
    const buyerId = buyerIds[index % buyerIds.length]!;
    const paidAt = new Date(Date.now() - (3 + index * 2) * 86_400_000);
    const at = (days: number) => new Date(paidAt.getTime() + days * 86_400_000);
    await seedSale(db, {
      buyerId,
      sellerId: listing.seller_id,
      charityId: listing.charity_id,
      books: [
        {
          listingId: listing.id,
          priceMinor: listing.price_minor!,
          parcelSize: listing.parcel_size as ParcelSize,
        },
      ],
      status: 'completed',
      paidAt,
      dispatchedAt: at(1),
      deliveredAt: at(3),
      completedAt: at(4),
      paymentRef: `demo_sold_${listing.id.replaceAll('-', '')}`,
      note: 'Demo sale',
    });
  }
  const soldIds = new Set(soldSlugs.map((listing) => listing.id));
  const active = listings.filter((listing) => !soldIds.has(listing.id));

  // Views over the last fortnight, skewed so some books are clearly more popular; wishlist
  // saves by the demo buyers. Sold copies keep their signals (the book still trends).
  const views: { listing_id: string; viewed_on: string; viewer_key: string }[] = [];
  for (const [index, listing] of listings.entries()) {
    const popularity = Math.floor(pick(`${listing.slug}:views`) ** 3 * 40) + (index % 9 === 0 ? 25 : 0);
    for (let v = 0; v < popularity; v++) {
      const day = new Date(Date.now() - Math.floor(pick(`${listing.slug}:${v}:day`) * 13) * 86_400_000);
      views.push({
        listing_id: listing.id,
        viewed_on: day.toISOString().slice(0, 10),
        viewer_key: createHash('sha256').update(`${listing.slug}:${v}`).digest('hex').slice(0, 32),
      });
    }
  }
  for (let start = 0; start < views.length; start += 1000) {
    await db
      .insertInto('listing_views')
      .values(views.slice(start, start + 1000))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const wishlist = active
    .filter((listing) => pick(`${listing.slug}:wish`) < 0.3)
    .flatMap((listing) =>
      buyerIds
        .filter((_, b) => pick(`${listing.slug}:wish:${b}`) < 0.6)
        .map((userId) => ({ user_id: userId, listing_id: listing.id })),
    );
  if (wishlist.length) await db.insertInto('wishlist_items').values(wishlist).execute();

  // Staff picks: a spread of shelves, each with a line on why.
  const pickNotes: Record<string, string> = {
    '9780141439518': 'Still the best opening line in English fiction.',
    '9780241988268': 'Cosy, clever and properly funny: perfect for a wet weekend.',
    '9780099575450': 'Grief, falconry and the English countryside in astonishing prose.',
    '9781408855652': 'Where it all began. A lovely copy for a first-time reader.',
    '9780340960196': 'The science-fiction epic everyone should read once.',
    '9781405937184': 'Makes you want to pull on your boots and walk the coast.',
    '9780007230204': 'Tudor politics as gripping as any thriller.',
    '9781509804757': 'The picture book that never gets old at bedtime.',
  };
  const picks = Object.entries(pickNotes).flatMap(([isbn, note], position) => {
    const bookId = bookIds.get(isbn);
    const listing = active.find((candidate) => candidate.book_id === bookId);
    return listing ? [{ listing_id: listing.id, position, note }] : [];
  });
  if (picks.length) await db.insertInto('staff_picks').values(picks).execute();

  await sql`analyze public.listings`.execute(db);
  return {
    sellers: DEMO_SELLERS.length,
    charities: DEMO_CHARITIES.length,
    books: bookIds.size,
    activeListings: active.length,
    soldListings: soldIds.size,
    staffPicks: picks.length,
  };
}
