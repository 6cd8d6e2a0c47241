/**
 * Selling: a listing is a draft from the wizard's first step, filled in step by step (every
 * step saves), and published in one transaction that checks everything again and gives it a
 * unique slug. The seller then edits, withdraws and relists it. Every change takes the
 * listing's row lock first and refuses while the listing is reserved by a buyer or sold (the
 * checkout takes the same lock to reserve it), so an edit and a purchase never cross.
 *
 * Ownership: every statement names the seller; someone else's listing is "not found".
 */
import { randomBytes } from 'node:crypto';
import {
  type BulkResult,
  COLLECTOR_MESSAGES,
  CONDITIONS,
  type Condition,
  isCollectable,
  type ListingWarnings,
  type LockReason,
  type MyListing,
  type MyListings,
  type MyListingsInput,
  PARCEL_SIZES,
  type ParcelSize,
  PHOTO_FORMATS,
  PHOTO_WIDTHS,
  type PhotoFormat,
  type PhotoWidth,
  type PriceSuggestion,
  photoSizeKey,
  postageFromBySize,
  priceFarAboveSuggestion,
  SELLING_LIMITS,
  SELLING_MESSAGES,
  type SellerListing,
  type SellingStep,
  slugify,
  type UpdateListingInput,
  type updateListingInputSchema,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import { saveTypedBook, verifiedBookFor } from '../../catalogue/index.ts';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { BookLookupPort } from '../../platform/book-lookup/book-lookup.ts';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import type { StoragePort } from '../../platform/storage/port.ts';

type Db = Database | Transaction<DB>;

/** Order states in which the book has gone to a buyer: the listing is sold. */
const SOLD_ORDER_STATES = ['paid', 'dispatched', 'delivered', 'completed', 'disputed'];

interface ListingRow {
  id: string;
  seller_id: string;
  status: SellerListing['status'];
  slug: string | null;
  draft_isbn13: string | null;
  book_id: string | null;
  condition: Condition | null;
  ex_library: boolean;
  format: 'paperback' | 'hardback' | null;
  first_edition: boolean;
  signed: boolean;
  first_printing: boolean;
  inscribed: boolean;
  book_club: boolean;
  print_on_demand: boolean;
  dust_jacket: SellerListing['dustJacket'];
  bookman_grade: SellerListing['bookmanGrade'];
  condition_notes: string | null;
  description: string | null;
  photos: unknown;
  price_minor: number | null;
  parcel_size: ParcelSize | null;
  page_count: number | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  category_id: string | null;
  b_isbn13: string | null;
  title: string | null;
  subtitle: string | null;
  authors: string[] | null;
  publisher: string | null;
  published_year: number | null;
  cover_url: string | null;
  verification: string | null;
  category_slug: string | null;
  category_name: string | null;
  order_status: string | null;
  wishlist_count: number;
}

/** A seller's listing with its book, its live order and its wishlist count; locked when asked. */
async function loadListing(
  db: Db,
  sellerId: string,
  listingId: string,
  { lock = false } = {},
): Promise<ListingRow> {
  const { rows } = await sql<ListingRow>`
    select l.id, l.seller_id, l.status, l.slug, l.draft_isbn13, l.book_id, l.condition, l.ex_library,
      l.format, l.first_edition, l.signed, l.first_printing, l.inscribed, l.book_club, l.print_on_demand,
      l.dust_jacket, l.bookman_grade, l.condition_notes, l.description, l.photos, l.price_minor, l.parcel_size, l.published_at,
      l.created_at, l.updated_at, l.category_id,
      b.isbn13 as b_isbn13, b.title, b.subtitle, b.authors, b.publisher, b.published_year, b.cover_url,
      b.page_count, b.verification, c.slug as category_slug, c.name as category_name,
      (select o.status from public.order_items i join public.orders o on o.id = i.order_id
        where i.listing_id = l.id and o.status not in ('cancelled', 'refunded')
        order by o.created_at desc limit 1) as order_status,
      (select count(*)::int from public.wishlist_items w where w.listing_id = l.id) as wishlist_count
    from public.listings l
    left join public.books b on b.id = l.book_id
    left join public.categories c on c.id = b.category_id
    where l.id = ${listingId} and l.seller_id = ${sellerId}
    ${lock ? sql`for update of l` : sql``}`.execute(db);
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', SELLING_MESSAGES.notYours);
  return row;
}

/**
 * Why a listing cannot be changed now: staff removed it; it has been sold (its status, or an
 * order that is paid or further on); or a buyer is paying for it (reserved, or an order
 * waiting for payment). Null when the seller may change it.
 */
export function lockOf(status: string, orderStatus: string | null): LockReason | null {
  if (status === 'removed') return 'removed';
  if (status === 'sold' || (orderStatus && SOLD_ORDER_STATES.includes(orderStatus))) return 'sold';
  if (status === 'reserved' || orderStatus === 'pending_payment') return 'reserved';
  return null;
}

function refuseIfLocked(row: ListingRow): void {
  const lock = lockOf(row.status, row.order_status);
  if (lock) throw new AppError('CONFLICT', SELLING_MESSAGES[lock], { reason: lock });
}

export function photosOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((photo): photo is string => typeof photo === 'string') : [];
}

/** The wizard steps a listing still needs before it can be published. */
function missingSteps(
  row: Pick<ListingRow, 'book_id' | 'condition' | 'photos' | 'price_minor' | 'parcel_size'>,
) {
  const missing: SellingStep[] = [];
  if (!row.book_id) missing.push('details');
  if (!row.condition) missing.push('condition');
  if (photosOf(row.photos).length === 0) missing.push('photos');
  if (row.price_minor === null) missing.push('price');
  if (!row.parcel_size) missing.push('parcel');
  return missing;
}

const MISSING_MESSAGES: Record<Exclude<SellingStep, 'isbn' | 'review'>, string> = {
  details: SELLING_MESSAGES.bookMissing,
  condition: SELLING_MESSAGES.conditionMissing,
  photos: SELLING_MESSAGES.noPhoto,
  price: SELLING_MESSAGES.priceMissing,
  parcel: SELLING_MESSAGES.parcelMissing,
};

/** A seller may correct their listing's book while nobody has vouched for it (decision 0061). */
function isEditableBook(row: ListingRow): boolean {
  return Boolean(row.book_id && row.verification === null);
}

async function toSellerListing(db: Db, row: ListingRow): Promise<SellerListing> {
  const settings = await getCommercialSettings(db);
  const lock = lockOf(row.status, row.order_status);
  return {
    id: row.id,
    status: row.status,
    slug: row.slug,
    isbn13: row.b_isbn13 ?? row.draft_isbn13,
    book:
      row.book_id && row.title
        ? {
            id: row.book_id,
            isbn13: row.b_isbn13,
            title: row.title,
            subtitle: row.subtitle,
            authors: row.authors ?? [],
            publisher: row.publisher,
            publishedYear: row.published_year,
            category:
              row.category_slug && row.category_name
                ? { slug: row.category_slug, name: row.category_name }
                : null,
            coverUrl: row.cover_url,
            editable: isEditableBook(row),
          }
        : null,
    condition: row.condition,
    exLibrary: row.ex_library,
    format: row.format,
    firstEdition: row.first_edition,
    signed: row.signed,
    firstPrinting: row.first_printing,
    inscribed: row.inscribed,
    bookClub: row.book_club,
    printOnDemand: row.print_on_demand,
    dustJacket: row.dust_jacket,
    bookmanGrade: row.bookman_grade,
    conditionNotes: row.condition_notes,
    description: row.description,
    photos: photosOf(row.photos),
    priceMinor: row.price_minor,
    parcelSize: row.parcel_size,
    postageMinor: postageFromBySize({ format: row.format, pageCount: row.page_count }, settings.postageRates),
    publishedAt: row.published_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    missing: missingSteps(row),
    lock: lock ? { reason: lock, message: SELLING_MESSAGES[lock] } : null,
    wishlistCount: row.wishlist_count,
  };
}

export async function getSellerListing(db: Database, sellerId: string, listingId: string) {
  return toSellerListing(db, await loadListing(db, sellerId, listingId));
}

// Starting ----------------------------------------------------------------------------------

export interface StartResult {
  listing: SellerListing;
  /** An unpublished draft for the same ISBN existed: it is carried on rather than duplicated. */
  resumed: boolean;
  /** Where the book's details came from. */
  source: 'catalogue' | 'openlibrary' | null;
}

/**
 * The wizard's first step. With an ISBN: our catalogue's book, else (hosted, online) Open
 * Library's details as a new book, else a draft that remembers the ISBN until the seller types
 * the details. Without one (old books have none): a draft waiting for typed details.
 */
export async function startListing(
  db: Database,
  lookup: BookLookupPort,
  sellerId: string,
  isbn13: string | null,
): Promise<StartResult> {
  if (isbn13) {
    const existing = await sql<{ id: string }>`
      select l.id from public.listings l
      left join public.books b on b.id = l.book_id
      where l.seller_id = ${sellerId} and l.status = 'draft'
        and (l.draft_isbn13 = ${isbn13} or b.isbn13 = ${isbn13})
      order by l.updated_at desc limit 1`.execute(db);
    if (existing.rows[0]) {
      return {
        listing: await getSellerListing(db, sellerId, existing.rows[0].id),
        resumed: true,
        source: null,
      };
    }
  }
  // Pre-filled only from a verified book (the catalogue's, a lookup's, staff's): details another
  // seller typed are not handed over as fact, and the seller types their own (decision 0061).
  const verified = isbn13 ? await verifiedBookFor(db, lookup, isbn13) : null;
  const bookId = verified?.id ?? null;
  const source: StartResult['source'] = verified?.source ?? null;
  const created = await db
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      status: 'draft',
      book_id: bookId,
      draft_isbn13: bookId ? null : isbn13,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { listing: await getSellerListing(db, sellerId, created.id), resumed: false, source };
}

// Saving a step -----------------------------------------------------------------------------

type UpdateValues = z.output<typeof updateListingInputSchema>;

async function categoryIdOf(db: Db, slug: string | null | undefined): Promise<string | null> {
  if (!slug) return null;
  const row = await db.selectFrom('categories').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `There is no category called “${slug}”.`);
  return row.id;
}

/**
 * Saves what a wizard step or an edit page sends; only the fields given change. The book's
 * details may be typed only for a listing without a catalogue book (or to correct the book
 * this seller typed and no one else uses). Refused while reserved, sold or removed.
 */
export async function updateListing(
  db: Database,
  sellerId: string,
  input: UpdateValues | UpdateListingInput,
): Promise<SellerListing> {
  const values = input as UpdateValues;
  return db.transaction().execute(async (trx) => {
    const row = await loadListing(trx, sellerId, values.listingId, { lock: true });
    refuseIfLocked(row);
    const changes: Record<string, unknown> = {};
    if (values.book) {
      const book = values.book;
      const categoryId = await categoryIdOf(trx, book.categorySlug);
      const bookValues = {
        title: book.title,
        subtitle: book.subtitle ?? null,
        authors: book.authors,
        publisher: book.publisher ?? null,
        published_year: book.publishedYear ?? null,
        category_id: categoryId,
      };
      // The listing's book, or the ISBN's (another seller may have typed it meanwhile), corrected
      // while unverified; a new unverified book otherwise. A verified book is not the seller's to change.
      const saved = await saveTypedBook(
        trx,
        sellerId,
        row.book_id ? { bookId: row.book_id } : { isbn13: row.draft_isbn13 },
        bookValues,
      );
      // A verified book with this ISBN (found or confirmed meanwhile) is the listing's book as it is.
      if (row.book_id && saved.verified) {
        throw new AppError(
          'BAD_INPUT',
          'This book’s details come from our catalogue, so they can’t be changed here. Say anything about your copy in its description.',
          { field: 'book' },
        );
      }
      if (!row.book_id) {
        changes.book_id = saved.id;
        changes.draft_isbn13 = null;
      }
    }
    if (values.description !== undefined) changes.description = values.description;
    if (values.condition !== undefined) changes.condition = values.condition;
    if (values.exLibrary !== undefined) changes.ex_library = values.exLibrary;
    if (values.format !== undefined) changes.format = values.format;
    if (values.firstEdition !== undefined) changes.first_edition = values.firstEdition;
    if (values.signed !== undefined) changes.signed = values.signed;
    Object.assign(changes, collectorChanges(row, values));
    if (values.conditionNotes !== undefined) changes.condition_notes = values.conditionNotes;
    if (values.priceMinor !== undefined) changes.price_minor = values.priceMinor;
    if (values.parcelSize !== undefined) changes.parcel_size = values.parcelSize;
    if (Object.keys(changes).length > 0 || values.book) {
      await trx
        .updateTable('listings')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', row.id)
        .execute();
    }
    return toSellerListing(trx, await loadListing(trx, sellerId, row.id));
  });
}

/**
 * The collectors' attributes a save changes (decision 0082). A Bookman grade is kept only on a
 * collectable copy: one asked for on a copy that is not (after this save) is refused, and a copy
 * that stops being collectable loses the grade it had, so none is left behind unseen.
 */
function collectorChanges(row: ListingRow, values: UpdateValues): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (values.firstPrinting !== undefined) changes.first_printing = values.firstPrinting;
  if (values.inscribed !== undefined) changes.inscribed = values.inscribed;
  if (values.bookClub !== undefined) changes.book_club = values.bookClub;
  if (values.printOnDemand !== undefined) changes.print_on_demand = values.printOnDemand;
  if (values.dustJacket !== undefined) changes.dust_jacket = values.dustJacket;
  const collectable = isCollectable({
    firstEdition: values.firstEdition ?? row.first_edition,
    firstPrinting: values.firstPrinting ?? row.first_printing,
    signed: values.signed ?? row.signed,
    inscribed: values.inscribed ?? row.inscribed,
  });
  if (values.bookmanGrade && !collectable) {
    throw new AppError('BAD_INPUT', COLLECTOR_MESSAGES.bookmanNotCollectable, { field: 'bookmanGrade' });
  }
  if (values.bookmanGrade !== undefined) changes.bookman_grade = values.bookmanGrade;
  else if (!collectable && row.bookman_grade !== null) changes.bookman_grade = null;
  return changes;
}

// Photos ------------------------------------------------------------------------------------

/**
 * The storage keys of a photo URL of this listing (the large size and every size in
 * PHOTO_WIDTHS × PHOTO_FORMATS), or null for a foreign URL.
 */
export function photoKeysOf(listingId: string, url: string): string[] | null {
  const match = new RegExp(
    `(?:^|/)(listings/${listingId}/[a-z0-9]+)/${SELLING_LIMITS.photoLargePx}\\.webp$`,
  ).exec(url);
  if (!match) return null;
  return [`${match[1]}/${SELLING_LIMITS.photoLargePx}.webp`, ...photoSizeKeys(match[1]!)];
}

/** The keys of every size of a photo in a folder (the thumbnail, `<photoThumbPx>.webp`, among them). */
function photoSizeKeys(folder: string): string[] {
  return PHOTO_WIDTHS.flatMap((width) => PHOTO_FORMATS.map((format) => photoSizeKey(folder, width, format)));
}

/** Checks a photo may be added before the work of storing it (checked again when saving). */
export async function assertCanAddPhoto(db: Database, sellerId: string, listingId: string): Promise<void> {
  const row = await loadListing(db, sellerId, listingId);
  refuseIfLocked(row);
  if (photosOf(row.photos).length >= SELLING_LIMITS.maxPhotos) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.tooManyPhotos);
  }
}

interface StoredFile {
  body: Buffer;
  width: number;
  height: number;
  contentType: string;
}

export interface NewPhoto {
  large: StoredFile;
  thumb: StoredFile;
  /** Every size in PHOTO_WIDTHS × PHOTO_FORMATS (decision 0063); the thumbnail is one of them. */
  sizes: Array<StoredFile & { name: PhotoWidth; format: PhotoFormat }>;
}

/**
 * Stores a processed photo's sizes (the large one last: the address kept is its) and adds it to
 * the listing. If the listing cannot take
 * it after all (locked or full meanwhile), the stored files are deleted again: nothing is left
 * half-saved.
 */
export async function addPhoto(
  db: Database,
  storage: StoragePort,
  sellerId: string,
  listingId: string,
  photo: NewPhoto,
): Promise<{ url: string; thumbUrl: string; listing: SellerListing }> {
  const prefix = `listings/${listingId}/${randomBytes(8).toString('hex')}`;
  const largeKey = `${prefix}/${SELLING_LIMITS.photoLargePx}.webp`;
  const thumbKey = photoSizeKey(prefix, SELLING_LIMITS.photoThumbPx, 'webp');
  const keys = [largeKey, ...photoSizeKeys(prefix)];
  const files = new Map<string, StoredFile>([[thumbKey, photo.thumb]]);
  for (const size of photo.sizes) files.set(photoSizeKey(prefix, size.name, size.format), size);
  try {
    for (const [key, file] of files) await storage.put(key, file.body, file.contentType);
    await storage.put(largeKey, photo.large.body, photo.large.contentType);
  } catch (error) {
    await storage.delete(keys).catch(() => {});
    throw error;
  }
  const url = storage.publicUrl(largeKey);
  try {
    const listing = await db.transaction().execute(async (trx) => {
      const row = await loadListing(trx, sellerId, listingId, { lock: true });
      refuseIfLocked(row);
      const photos = photosOf(row.photos);
      if (photos.length >= SELLING_LIMITS.maxPhotos)
        throw new AppError('BAD_INPUT', SELLING_MESSAGES.tooManyPhotos);
      await trx
        .updateTable('listings')
        .set({ photos: JSON.stringify([...photos, url]), updated_at: new Date() })
        .where('id', '=', listingId)
        .execute();
      return toSellerListing(trx, await loadListing(trx, sellerId, listingId));
    });
    return { url, thumbUrl: storage.publicUrl(thumbKey), listing };
  } catch (error) {
    await storage.delete(keys).catch(() => {});
    throw error;
  }
}

/** Removes a photo (and its files, once the change is saved). A listing on sale keeps at least one. */
export async function removePhoto(
  db: Database,
  storage: StoragePort,
  sellerId: string,
  listingId: string,
  url: string,
): Promise<SellerListing> {
  const { listing, keys } = await db.transaction().execute(async (trx) => {
    const row = await loadListing(trx, sellerId, listingId, { lock: true });
    refuseIfLocked(row);
    const photos = photosOf(row.photos);
    if (!photos.includes(url)) throw new AppError('NOT_FOUND', 'That photo is not on this listing any more.');
    const remaining = photos.filter((photo) => photo !== url);
    if (remaining.length === 0 && row.status !== 'draft') {
      throw new AppError(
        'BAD_INPUT',
        `${SELLING_MESSAGES.noPhoto}: add another photo before removing this one.`,
      );
    }
    await trx
      .updateTable('listings')
      .set({ photos: JSON.stringify(remaining), updated_at: new Date() })
      .where('id', '=', listingId)
      .execute();
    return {
      listing: await toSellerListing(trx, await loadListing(trx, sellerId, listingId)),
      keys: photoKeysOf(listingId, url) ?? [],
    };
  });
  await storage.delete(keys).catch(() => {});
  return listing;
}

/** Puts the photos in a new order (the first is the one shown on cards). */
export async function reorderPhotos(
  db: Database,
  sellerId: string,
  listingId: string,
  order: string[],
): Promise<SellerListing> {
  return db.transaction().execute(async (trx) => {
    const row = await loadListing(trx, sellerId, listingId, { lock: true });
    refuseIfLocked(row);
    const photos = photosOf(row.photos);
    const same =
      order.length === photos.length && [...order].sort().join('\n') === [...photos].sort().join('\n');
    if (!same)
      throw new AppError('CONFLICT', 'The photos have changed meanwhile. Reload the page and try again.');
    await trx
      .updateTable('listings')
      .set({ photos: JSON.stringify(order), updated_at: new Date() })
      .where('id', '=', listingId)
      .execute();
    return toSellerListing(trx, await loadListing(trx, sellerId, listingId));
  });
}

// Publishing --------------------------------------------------------------------------------

/** Checks a listing has everything a buyer needs; the first thing missing is the message. */
function assertComplete(row: ListingRow): void {
  const missing = missingSteps(row);
  const first = missing[0];
  if (first && first !== 'isbn' && first !== 'review') {
    throw new AppError('BAD_INPUT', MISSING_MESSAGES[first], { field: first, missing });
  }
  if (!row.title || row.title.trim().length === 0 || row.title.length > SELLING_LIMITS.maxTitle) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.titleTooLong, { field: 'details' });
  }
  if (!(CONDITIONS as readonly string[]).includes(row.condition ?? '')) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.conditionMissing, { field: 'condition' });
  }
  if (!(PARCEL_SIZES as readonly string[]).includes(row.parcel_size ?? '')) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.parcelMissing, { field: 'parcel' });
  }
  const price = row.price_minor ?? 0;
  if (price < SELLING_LIMITS.minPriceMinor)
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.priceTooLow, { field: 'price' });
  if (price > SELLING_LIMITS.maxPriceMinor)
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.priceTooHigh, { field: 'price' });
  if (photosOf(row.photos).length > SELLING_LIMITS.maxPhotos) {
    throw new AppError('BAD_INPUT', SELLING_MESSAGES.tooManyPhotos, { field: 'photos' });
  }
}

function isSlugTaken(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError.code === '23505' && pgError.constraint === 'listings_slug_key';
}

/** The slug to try: the title alone the first time (when free), then the title and a random tail. */
async function slugCandidate(db: Db, title: string, attempt: number): Promise<string> {
  const base = slugify(title) || 'book';
  if (attempt === 0) {
    const taken = await db.selectFrom('listings').select('id').where('slug', '=', base).executeTakeFirst();
    if (!taken) return base;
  }
  return `${base.slice(0, 72)}-${randomBytes(4).readUInt32BE(0).toString(36).padStart(6, '0').slice(-6)}`;
}

export const PUBLISH_ATTEMPTS = 8;

/** How many publishes lost a slug race and were tried again (read by tests and for debugging). */
export const publishStats = { slugRetries: 0 };

/**
 * Publishes a draft: one transaction that locks the row, checks everything again (what the
 * wizard saved may have been made incomplete since), gives the listing a unique slug and puts
 * it on sale. Two publishes of the same title at once both succeed: the loser of the slug race
 * gets a unique violation, and the whole transaction is tried again with another slug.
 * Publishing a listing that is already on sale changes nothing.
 */
export async function publishListing(
  db: Database,
  sellerId: string,
  listingId: string,
): Promise<SellerListing> {
  for (let attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const row = await loadListing(trx, sellerId, listingId, { lock: true });
        refuseIfLocked(row);
        if (row.status === 'active') return toSellerListing(trx, row);
        if (row.status !== 'draft') {
          throw new AppError(
            'CONFLICT',
            'Only a draft can be published. To put a withdrawn listing back on sale, relist it.',
          );
        }
        assertComplete(row);
        const slug = await slugCandidate(trx, row.title!, attempt);
        await trx
          .updateTable('listings')
          .set({
            status: 'active',
            slug,
            published_at: new Date(),
            draft_isbn13: null,
            updated_at: new Date(),
          })
          .where('id', '=', row.id)
          .execute();
        return toSellerListing(trx, await loadListing(trx, sellerId, row.id));
      });
    } catch (error) {
      if (isSlugTaken(error)) {
        publishStats.slugRetries++;
        continue;
      }
      throw error;
    }
  }
  throw new AppError('CONFLICT', 'We couldn’t publish your listing just now. Please try again.');
}

/** Puts a withdrawn listing back on sale, after the same checks as publishing. */
export async function relistListing(
  db: Database,
  sellerId: string,
  listingId: string,
): Promise<SellerListing> {
  return db.transaction().execute(async (trx) => {
    const row = await loadListing(trx, sellerId, listingId, { lock: true });
    refuseIfLocked(row);
    if (row.status === 'active') return toSellerListing(trx, row);
    if (row.status !== 'withdrawn')
      throw new AppError('CONFLICT', 'Only a withdrawn listing can be relisted.');
    assertComplete(row);
    await trx
      .updateTable('listings')
      .set({ status: 'active', published_at: new Date(), updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    return toSellerListing(trx, await loadListing(trx, sellerId, row.id));
  });
}

/**
 * Takes listings off sale. Each is judged on its own: those that can be withdrawn are, in one
 * transaction; the others are reported with the reason (reserved, sold, a draft, not yours).
 */
export async function withdrawListings(
  db: Database,
  sellerId: string,
  listingIds: string[],
): Promise<BulkResult> {
  const ids = [...new Set(listingIds)];
  return db.transaction().execute(async (trx) => {
    const result: BulkResult = { done: [], refused: [] };
    const toWithdraw: string[] = [];
    // A stable order of row locks, so two bulk withdrawals never deadlock.
    for (const id of [...ids].sort()) {
      let row: ListingRow;
      try {
        row = await loadListing(trx, sellerId, id, { lock: true });
      } catch (error) {
        if (error instanceof AppError) {
          result.refused.push({ id, title: null, message: error.message });
          continue;
        }
        throw error;
      }
      const lock = lockOf(row.status, row.order_status);
      if (lock) result.refused.push({ id, title: row.title, message: SELLING_MESSAGES[lock] });
      else if (row.status === 'draft') {
        result.refused.push({
          id,
          title: row.title,
          message: 'This is a draft, not on sale: delete it instead.',
        });
      } else {
        toWithdraw.push(id);
        result.done.push(id);
      }
    }
    if (toWithdraw.length) {
      await trx
        .updateTable('listings')
        .set({ status: 'withdrawn', updated_at: new Date() })
        .where('id', 'in', toWithdraw)
        .where('status', '=', 'active')
        .execute();
    }
    const order = new Map(listingIds.map((id, index) => [id, index]));
    result.done.sort((a, b) => order.get(a)! - order.get(b)!);
    result.refused.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    return result;
  });
}

/** Deletes a draft and its photos. Published listings are withdrawn, never deleted. */
export async function deleteDraft(
  db: Database,
  storage: StoragePort,
  sellerId: string,
  listingId: string,
): Promise<void> {
  const photos = await db.transaction().execute(async (trx) => {
    const row = await loadListing(trx, sellerId, listingId, { lock: true });
    if (row.status !== 'draft') {
      throw new AppError('CONFLICT', 'Only drafts can be deleted. Withdraw a listing to take it off sale.');
    }
    await trx.deleteFrom('listings').where('id', '=', listingId).execute();
    return photosOf(row.photos);
  });
  const keys = photos.flatMap((url) => photoKeysOf(listingId, url) ?? []);
  await storage.delete(keys).catch(() => {});
}

// Price suggestion --------------------------------------------------------------------------

/**
 * What similar copies sell for: the median asking price of other copies of the same book on
 * sale; without any, of books in the same category and condition. Null when nothing compares.
 */
export async function suggestPrice(
  db: Database,
  sellerId: string,
  listingId: string,
): Promise<PriceSuggestion> {
  return suggestionFor(db, await loadListing(db, sellerId, listingId));
}

async function suggestionFor(db: Database, row: ListingRow): Promise<PriceSuggestion> {
  const stats = async (where: ReturnType<typeof sql>) => {
    const { rows } = await sql<{ median: number | null; n: number; low: number | null; high: number | null }>`
      select percentile_cont(0.5) within group (order by l.price_minor) as median, count(*)::int as n,
             min(l.price_minor) as low, max(l.price_minor) as high
      from public.listings l
      where l.status = 'active' and l.id <> ${row.id} and ${where}`.execute(db);
    return rows[0]!;
  };
  if (row.book_id) {
    const same = await stats(sql`l.book_id = ${row.book_id}`);
    if (same.n > 0 && same.median !== null) {
      return {
        suggestedMinor: Math.round(same.median),
        basis: 'same_book',
        sampleSize: same.n,
        lowMinor: same.low!,
        highMinor: same.high!,
      };
    }
  }
  if (row.category_id && row.condition) {
    const similar = await stats(sql`l.category_id = ${row.category_id} and l.condition = ${row.condition}`);
    if (similar.n > 0 && similar.median !== null) {
      return {
        suggestedMinor: Math.round(similar.median),
        basis: 'category_condition',
        sampleSize: similar.n,
        lowMinor: similar.low!,
        highMinor: similar.high!,
      };
    }
  }
  return null;
}

/**
 * What to tell the seller before they publish, without stopping them: a price far
 * above the suggestion (priceFarAboveSuggestion), and their own copies of the same book in the
 * same condition at the same price already on sale or reserved.
 */
export async function listingWarnings(
  db: Database,
  sellerId: string,
  listingId: string,
): Promise<ListingWarnings> {
  const row = await loadListing(db, sellerId, listingId);
  const price = row.price_minor;
  const suggestion = price === null ? null : await suggestionFor(db, row);
  const duplicates =
    row.book_id && row.condition && price !== null
      ? await db
          .selectFrom('listings')
          .select(['id', 'slug', 'status'])
          .where('seller_id', '=', sellerId)
          .where('id', '<>', row.id)
          .where('book_id', '=', row.book_id)
          .where('condition', '=', row.condition)
          .where('price_minor', '=', price)
          .where('status', 'in', ['active', 'reserved'])
          .orderBy('published_at')
          .orderBy('id')
          .execute()
      : [];
  return {
    price:
      price !== null && suggestion && priceFarAboveSuggestion(price, suggestion.suggestedMinor)
        ? { priceMinor: price, suggestedMinor: suggestion.suggestedMinor }
        : null,
    duplicates: duplicates.map((d) => ({
      id: d.id,
      slug: d.slug,
      status: d.status as SellerListing['status'],
    })),
  };
}

// My listings -------------------------------------------------------------------------------

export async function myListings(
  db: Database,
  sellerId: string,
  input: Required<Pick<MyListingsInput, 'status' | 'page' | 'pageSize'>>,
): Promise<MyListings> {
  const statusFilter = input.status === 'all' ? sql`` : sql`and l.status = ${input.status}`;
  const offset = (input.page - 1) * input.pageSize;
  const [{ rows }, counts] = await Promise.all([
    sql<{
      id: string;
      status: MyListing['status'];
      slug: string | null;
      title: string | null;
      authors: string[] | null;
      isbn13: string | null;
      photos: unknown;
      cover_url: string | null;
      book_id: string | null;
      condition: Condition | null;
      price_minor: number | null;
      parcel_size: ParcelSize | null;
      published_at: Date | null;
      updated_at: Date;
      order_status: string | null;
      wishlist_count: number;
      total: number;
    }>`
      select l.id, l.status, l.slug, b.title, b.authors, coalesce(b.isbn13, l.draft_isbn13) as isbn13,
        l.photos, b.cover_url, l.book_id, l.condition, l.price_minor, l.parcel_size, l.published_at,
        l.updated_at,
        (select o.status from public.order_items i join public.orders o on o.id = i.order_id
          where i.listing_id = l.id and o.status not in ('cancelled', 'refunded')
          order by o.created_at desc limit 1) as order_status,
        (select count(*)::int from public.wishlist_items w where w.listing_id = l.id) as wishlist_count,
        count(*) over ()::int as total
      from public.listings l
      left join public.books b on b.id = l.book_id
      where l.seller_id = ${sellerId} ${statusFilter}
      order by l.updated_at desc, l.id desc
      limit ${input.pageSize} offset ${offset}`.execute(db),
    sql<{ status: string; n: number }>`
      select status, count(*)::int as n from public.listings where seller_id = ${sellerId} group by status`.execute(
      db,
    ),
  ]);
  const byStatus = new Map(counts.rows.map((row) => [row.status, row.n]));
  const count = (status: string) => byStatus.get(status) ?? 0;
  return {
    items: rows.map((row) => ({
      id: row.id,
      status: row.status,
      slug: row.slug,
      title: row.title,
      authors: row.authors ?? [],
      isbn13: row.isbn13,
      photoUrl: photosOf(row.photos)[0] ?? null,
      coverUrl: row.cover_url,
      condition: row.condition,
      priceMinor: row.price_minor,
      publishedAt: row.published_at?.toISOString() ?? null,
      updatedAt: row.updated_at.toISOString(),
      missing: missingSteps(row),
      lock: lockOf(row.status, row.order_status),
      wishlistCount: row.wishlist_count,
    })),
    page: input.page,
    pageSize: input.pageSize,
    total: rows[0]?.total ?? 0,
    counts: {
      all: counts.rows.reduce((sum, row) => sum + row.n, 0),
      draft: count('draft'),
      active: count('active'),
      reserved: count('reserved'),
      sold: count('sold'),
      withdrawn: count('withdrawn'),
    },
  };
}
