/**
 * Selling, the wishlist and notifications: request and response shapes shared by the BFF and
 * the web client, with the limits and the messages a person sees. The same rules are checked
 * by the web form (at once) and by the BFF (always).
 */
import { z } from 'zod';
import { BOOK_FORMATS, namedRefSchema } from './catalogue.ts';
import { CONDITIONS, LISTING_STATUSES, PARCEL_SIZES } from './constants.ts';
import { BOOKMAN_GRADES, COLLECTOR_MESSAGES, DUST_JACKET_STATES, isCollectable } from './edition-words.ts';
import { ISBN_MESSAGES, parseIsbn } from './isbn.ts';
import { formatPence } from './money.ts';
import { countOf } from './plural.ts';
import { slugSchema } from './schemas.ts';
import { SELLING_LIMITS } from './selling-limits.ts';

/** Image types a photo may be (read from the file's first bytes, never its name). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

export const SELLING_MESSAGES = {
  priceMissing: 'Enter a price',
  priceNotPence: 'Enter the price in pounds and pence, like 4.50',
  priceTooLow: 'Enter a price of at least 1p: books can’t be given away for £0',
  priceTooHigh: 'The most you can ask for a book is £10,000',
  titleMissing: 'Enter the book’s title',
  titleTooLong: 'The title can be at most 300 characters',
  subtitleTooLong: 'The subtitle can be at most 300 characters',
  authorsMissing: 'Enter at least one author',
  authorTooLong: 'An author’s name can be at most 200 characters',
  tooManyAuthors: 'A book can have at most 20 authors listed',
  publisherTooLong: 'The publisher can be at most 200 characters',
  yearOutOfRange: 'Enter the year the book was published, like 1998',
  conditionMissing: 'Choose the condition of your copy',
  conditionNotesTooLong: 'Notes on the condition can be at most 2,000 characters',
  descriptionTooLong: 'Your description can be at most 5,000 characters',
  parcelMissing: 'Choose a parcel size',
  bookMissing: 'Tell us which book this is: enter its ISBN or its title and author',
  noPhoto: 'Add at least one photo of your copy',
  tooManyPhotos: 'A listing can have up to 8 photos. Remove one to add another.',
  photoNotImage: 'That file isn’t a photo we can use. Choose a JPEG, PNG or WebP image.',
  photoTooBig: 'That photo is over 10 MB. Choose a smaller one (phone photos are usually 2–5 MB).',
  photoUnreadable: 'We couldn’t read that photo: the file may be damaged. Try another one.',
  photoMissingFile: 'Choose a photo to upload',
  photoTooManyPixels:
    'This image is larger than 40 megapixels. Resize it or choose a smaller one (a phone photo is usually about 12).',
  photoBusy: 'We’re busy with a lot of photos right now. Try again in a few seconds.',
  reserved:
    'This book is reserved by a buyer who is paying for it now, so it can’t be changed. If they don’t finish paying within 15 minutes it goes back on sale and you can change it again.',
  sold: 'This book has been sold, so its listing can’t be changed any more.',
  removed:
    'Our team removed this listing, so it can’t be changed. Contact us if you think this is a mistake.',
  notYours: 'We couldn’t find that listing among yours.',
} as const;

export const SELLING_STEPS = ['isbn', 'details', 'condition', 'photos', 'price', 'parcel', 'review'] as const;
export type SellingStep = (typeof SELLING_STEPS)[number];
export const SELLING_STEP_LABELS: Record<SellingStep, string> = {
  isbn: 'ISBN',
  details: 'Details',
  condition: 'Condition',
  photos: 'Photos',
  price: 'Price',
  parcel: 'Postage',
  review: 'Review',
};

/** The listing subpages a published listing can be edited on (/sell/{id}/{subpage}). */
export const EDIT_SUBPAGES = ['details', 'photos', 'price', 'withdraw'] as const;
export type EditSubpage = (typeof EDIT_SUBPAGES)[number];

export const PARCEL_SIZE_LABELS: Record<(typeof PARCEL_SIZES)[number], { name: string; hint: string }> = {
  small: {
    name: 'Small parcel',
    hint: 'A paperback or a slim hardback (up to 2 kg, fits a large letterbox)',
  },
  medium: { name: 'Medium parcel', hint: 'A thick hardback or two or three paperbacks (up to 5 kg)' },
  large: { name: 'Large parcel', hint: 'A big art, cookery or reference book, or a set (up to 10 kg)' },
};

/** An ISBN as typed: refused with a message saying what is wrong, or its ISBN-13. */
export const isbnInputSchema = z
  .string(ISBN_MESSAGES.empty)
  .max(40, ISBN_MESSAGES.length)
  .transform((value, ctx) => {
    const parsed = parseIsbn(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: ISBN_MESSAGES[parsed.problem] });
      return z.NEVER;
    }
    return parsed.isbn13;
  });

export const priceMinorSchema = z
  .number(SELLING_MESSAGES.priceMissing)
  .int(SELLING_MESSAGES.priceNotPence)
  .min(SELLING_LIMITS.minPriceMinor, SELLING_MESSAGES.priceTooLow)
  .max(SELLING_LIMITS.maxPriceMinor, SELLING_MESSAGES.priceTooHigh);

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

/** A book's details typed in by a seller (when the catalogue does not know the ISBN). */
export const bookDetailsInputSchema = z.object({
  title: z
    .string(SELLING_MESSAGES.titleMissing)
    .trim()
    .min(1, SELLING_MESSAGES.titleMissing)
    .max(SELLING_LIMITS.maxTitle, SELLING_MESSAGES.titleTooLong),
  subtitle: optionalText(SELLING_LIMITS.maxSubtitle, SELLING_MESSAGES.subtitleTooLong),
  authors: z
    .array(
      z.string().trim().max(SELLING_LIMITS.maxAuthorLength, SELLING_MESSAGES.authorTooLong),
      SELLING_MESSAGES.authorsMissing,
    )
    .transform((authors) => authors.filter((author) => author !== ''))
    .pipe(
      z
        .array(z.string())
        .min(1, SELLING_MESSAGES.authorsMissing)
        .max(SELLING_LIMITS.maxAuthors, SELLING_MESSAGES.tooManyAuthors),
    ),
  publisher: optionalText(SELLING_LIMITS.maxPublisher, SELLING_MESSAGES.publisherTooLong),
  publishedYear: z
    .number(SELLING_MESSAGES.yearOutOfRange)
    .int(SELLING_MESSAGES.yearOutOfRange)
    .min(1450, SELLING_MESSAGES.yearOutOfRange)
    .max(2100, SELLING_MESSAGES.yearOutOfRange)
    .nullable()
    .optional(),
  categorySlug: slugSchema.nullable().optional(),
});
export type BookDetailsInput = z.input<typeof bookDetailsInputSchema>;

export const listingIdSchema = z.uuid('That is not a listing id');

export const startListingInputSchema = z.object({
  /** The ISBN as typed; null when the book has none (typed details follow). */
  isbn: isbnInputSchema.nullable(),
});
export type StartListingInput = z.input<typeof startListingInputSchema>;

export const updateListingInputSchema = z
  .object({
    listingId: listingIdSchema,
    book: bookDetailsInputSchema.optional(),
    description: optionalText(SELLING_LIMITS.maxDescription, SELLING_MESSAGES.descriptionTooLong),
    condition: z.enum(CONDITIONS, SELLING_MESSAGES.conditionMissing).optional(),
    exLibrary: z.boolean().optional(),
    /** The copy's binding, and what makes it special (advanced search finds them). */
    format: z.enum(BOOK_FORMATS, 'Format must be paperback or hardback').nullable().optional(),
    firstEdition: z.boolean().optional(),
    signed: z.boolean().optional(),
    /** The rest of the collectors' attributes (COPY_ATTRIBUTES, decision 0082). */
    firstPrinting: z.boolean().optional(),
    inscribed: z.boolean().optional(),
    bookClub: z.boolean().optional(),
    printOnDemand: z.boolean().optional(),
    /** The dust jacket's own Bookman grade, or 'none'; null: the seller does not say. */
    dustJacket: z.enum(DUST_JACKET_STATES, COLLECTOR_MESSAGES.dustJacketUnknown).nullable().optional(),
    /**
     * A collectable copy's Bookman grade; null: its everyday grade's (BOOKMAN_FOR_CONDITION). A
     * grade on a copy that is not collectable is refused, here when the input says so and by the
     * service against the stored copy.
     */
    bookmanGrade: z.enum(BOOKMAN_GRADES, COLLECTOR_MESSAGES.bookmanUnknown).nullable().optional(),
    conditionNotes: optionalText(SELLING_LIMITS.maxConditionNotes, SELLING_MESSAGES.conditionNotesTooLong),
    priceMinor: priceMinorSchema.optional(),
    parcelSize: z.enum(PARCEL_SIZES, SELLING_MESSAGES.parcelMissing).optional(),
  })
  .superRefine((input, ctx) => {
    const { firstEdition, firstPrinting, signed, inscribed } = input;
    if (
      input.bookmanGrade &&
      firstEdition !== undefined &&
      firstPrinting !== undefined &&
      signed !== undefined &&
      inscribed !== undefined &&
      !isCollectable({ firstEdition, firstPrinting, signed, inscribed })
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['bookmanGrade'],
        message: COLLECTOR_MESSAGES.bookmanNotCollectable,
      });
    }
  });
export type UpdateListingInput = z.input<typeof updateListingInputSchema>;

export const LOCK_REASONS = ['reserved', 'sold', 'removed'] as const;
export type LockReason = (typeof LOCK_REASONS)[number];

export const sellerBookSchema = z.object({
  id: z.uuid(),
  isbn13: z.string().nullable(),
  title: z.string(),
  subtitle: z.string().nullable(),
  authors: z.array(z.string()),
  publisher: z.string().nullable(),
  publishedYear: z.number().int().nullable(),
  category: namedRefSchema.nullable(),
  coverUrl: z.string().nullable(),
  /** Typed in by this seller and used by no one else's listing: the seller may correct it. */
  editable: z.boolean(),
});
export type SellerBook = z.infer<typeof sellerBookSchema>;

export const sellerListingSchema = z.object({
  id: z.uuid(),
  status: z.enum(LISTING_STATUSES),
  slug: z.string().nullable(),
  /** The book's ISBN-13, or the one the draft was started from. */
  isbn13: z.string().nullable(),
  book: sellerBookSchema.nullable(),
  condition: z.enum(CONDITIONS).nullable(),
  exLibrary: z.boolean(),
  format: z.enum(BOOK_FORMATS).nullable(),
  firstEdition: z.boolean(),
  signed: z.boolean(),
  firstPrinting: z.boolean(),
  inscribed: z.boolean(),
  bookClub: z.boolean(),
  printOnDemand: z.boolean(),
  dustJacket: z.enum(DUST_JACKET_STATES).nullable(),
  /** The seller's own Bookman grade; null: the everyday grade's (bookmanGradeOf). */
  bookmanGrade: z.enum(BOOKMAN_GRADES).nullable(),
  conditionNotes: z.string().nullable(),
  description: z.string().nullable(),
  photos: z.array(z.string()),
  priceMinor: z.number().int().nullable(),
  parcelSize: z.enum(PARCEL_SIZES).nullable(),
  /** What the buyer pays for postage in each band (settings). */
  postageMinor: z.object({ small: z.number().int(), medium: z.number().int(), large: z.number().int() }),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Wizard steps that still need something before the draft can be published. */
  missing: z.array(z.enum(SELLING_STEPS)),
  /** Why the listing cannot be changed now, if it cannot. */
  lock: z.object({ reason: z.enum(LOCK_REASONS), message: z.string() }).nullable(),
  wishlistCount: z.number().int(),
});
export type SellerListing = z.infer<typeof sellerListingSchema>;

export const bookLookupSchema = z.object({
  isbn13: z.string(),
  source: z.enum(['catalogue', 'openlibrary']).nullable(),
  book: z
    .object({
      title: z.string(),
      subtitle: z.string().nullable(),
      authors: z.array(z.string()),
      publisher: z.string().nullable(),
      publishedYear: z.number().int().nullable(),
      coverUrl: z.string().nullable(),
    })
    .nullable(),
});
export type BookLookup = z.infer<typeof bookLookupSchema>;

export const priceSuggestionSchema = z
  .object({
    suggestedMinor: z.number().int(),
    basis: z.enum(['same_book', 'category_condition']),
    sampleSize: z.number().int(),
    lowMinor: z.number().int(),
    highMinor: z.number().int(),
  })
  .nullable();
export type PriceSuggestion = z.infer<typeof priceSuggestionSchema>;

/**
 * What the seller is told before publishing, from the server's figures, without being stopped:
 * a price far above the suggestion, and their own copies of the same book in the same condition
 * at the same price already on sale (a listing made twice by mistake).
 */
export const listingWarningsSchema = z.object({
  price: z.object({ priceMinor: z.number().int(), suggestedMinor: z.number().int() }).nullable(),
  duplicates: z.array(
    z.object({ id: z.uuid(), slug: z.string().nullable(), status: z.enum(LISTING_STATUSES) }),
  ),
});
export type ListingWarnings = z.infer<typeof listingWarningsSchema>;

/** The words of those warnings, the same at the price step and the review step. */
export const SELLING_WARNINGS = {
  priceFarAbove: (priceMinor: number, suggestedMinor: number) =>
    `${formatPence(priceMinor)} is far above what similar copies sell for: we suggest ${formatPence(suggestedMinor)}. You can still ask it; check it is the price you mean.`,
  duplicate: (copies: number) =>
    `You already have ${countOf(copies, 'copy', 'copies')} of this book on sale in the same condition at the same price. Publish this one too only if you have another copy to sell.`,
};

export const MY_LISTING_FILTERS = ['all', 'draft', 'active', 'reserved', 'sold', 'withdrawn'] as const;
export type MyListingFilter = (typeof MY_LISTING_FILTERS)[number];
export const MY_LISTING_FILTER_LABELS: Record<MyListingFilter, string> = {
  all: 'All',
  draft: 'Drafts',
  active: 'On sale',
  reserved: 'Reserved',
  sold: 'Sold',
  withdrawn: 'Withdrawn',
};

export const myListingsInputSchema = z.object({
  status: z.enum(MY_LISTING_FILTERS).default('all'),
  page: z.number().int().min(1).max(1000, 'Page can be at most 1000').default(1),
  pageSize: z.number().int().min(1).max(48).default(24),
});
export type MyListingsInput = z.input<typeof myListingsInputSchema>;

export const myListingSchema = z.object({
  id: z.uuid(),
  status: z.enum(LISTING_STATUSES),
  slug: z.string().nullable(),
  title: z.string().nullable(),
  authors: z.array(z.string()),
  isbn13: z.string().nullable(),
  photoUrl: z.string().nullable(),
  coverUrl: z.string().nullable(),
  condition: z.enum(CONDITIONS).nullable(),
  priceMinor: z.number().int().nullable(),
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
  missing: z.array(z.enum(SELLING_STEPS)),
  lock: z.enum(LOCK_REASONS).nullable(),
  wishlistCount: z.number().int(),
});
export type MyListing = z.infer<typeof myListingSchema>;

export const myListingsSchema = z.object({
  items: z.array(myListingSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  /** How many of the caller's listings each tab holds. */
  counts: z.object({
    all: z.number().int(),
    draft: z.number().int(),
    active: z.number().int(),
    reserved: z.number().int(),
    sold: z.number().int(),
    withdrawn: z.number().int(),
  } satisfies Record<(typeof MY_LISTING_FILTERS)[number], z.ZodNumber>),
});
export type MyListings = z.infer<typeof myListingsSchema>;

export const bulkListingInputSchema = z.object({
  listingIds: z
    .array(listingIdSchema)
    .min(1, 'Choose at least one listing')
    .max(SELLING_LIMITS.maxBulk, `Choose at most ${SELLING_LIMITS.maxBulk} listings at a time`),
});

export const bulkResultSchema = z.object({
  done: z.array(z.uuid()),
  refused: z.array(z.object({ id: z.uuid(), title: z.string().nullable(), message: z.string() })),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const photoUploadResultSchema = z.object({
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  listing: sellerListingSchema,
});
export type PhotoUploadResult = z.infer<typeof photoUploadResultSchema>;

// Wishlist and notifications --------------------------------------------------------------

export const wishlistToggleInputSchema = z.object({ listingId: listingIdSchema, wished: z.boolean() });

export const wishlistStatusSchema = z.object({ listingIds: z.array(z.uuid()) });

// Notifications: notifications.ts.
