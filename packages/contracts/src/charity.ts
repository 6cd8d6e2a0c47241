/**
 * Charities: sign-up, review, members, bulk listing from a CSV, Retail Gift Aid and
 * 14-day returns. The shapes, limits and messages shared by the BFF and the web client.
 */
import { z } from 'zod';
import {
  COMMERCIAL_DEFAULTS,
  CONDITION_LABELS,
  CONDITIONS,
  type Condition,
  PARCEL_SIZES,
} from './constants.ts';
import {
  BOOKMAN_GRADES,
  type BookmanGrade,
  COLLECTOR_MESSAGES,
  COPY_ATTRIBUTES,
  type CopyAttribute,
  DUST_JACKET_STATES,
  type DustJacketState,
  isCollectable,
} from './edition-words.ts';
import { ISBN_MESSAGES, parseIsbn } from './isbn.ts';
import { parsePounds } from './money.ts';
import { plural } from './plural.ts';
import { SELLING_MESSAGES } from './selling.ts';
import { SELLING_LIMITS } from './selling-limits.ts';

// Registered charity numbers ------------------------------------------------------------------

export type CharityRegister = 'england_wales' | 'scotland' | 'northern_ireland';

export const CHARITY_REGISTER_LABELS: Record<CharityRegister, string> = {
  england_wales: 'Charity Commission for England and Wales',
  scotland: 'Scottish Charity Regulator (OSCR)',
  northern_ireland: 'Charity Commission for Northern Ireland',
};

export const CHARITY_NUMBER_MESSAGES = {
  empty: 'Enter your registered charity number',
  englandWales: 'A charity number in England and Wales has 6 to 8 digits, like 1148392',
  scotland: 'A Scottish charity number is SC followed by 6 digits, like SC012345',
  northernIreland: 'A Northern Ireland charity number is NIC followed by 6 digits, like NIC100123',
  unknown:
    'Enter a registered charity number: 6 to 8 digits (England and Wales), SC and 6 digits (Scotland) or NIC and 6 digits (Northern Ireland)',
} as const;

export type CharityNumberParse =
  | { ok: true; number: string; register: CharityRegister }
  | { ok: false; message: string };

/**
 * A registered charity number as a person types it (spaces and a lower-case prefix allowed),
 * with the register it belongs to, or the message saying what is wrong with it.
 */
export function parseCharityNumber(input: string): CharityNumberParse {
  const compact = input.replace(/[\s-]/g, '').toUpperCase();
  if (compact === '') return { ok: false, message: CHARITY_NUMBER_MESSAGES.empty };
  if (compact.startsWith('NIC') || compact.startsWith('NI')) {
    return /^NIC\d{6}$/.test(compact)
      ? { ok: true, number: compact, register: 'northern_ireland' }
      : { ok: false, message: CHARITY_NUMBER_MESSAGES.northernIreland };
  }
  if (compact.startsWith('SC') || compact.startsWith('S')) {
    return /^SC\d{6}$/.test(compact)
      ? { ok: true, number: compact, register: 'scotland' }
      : { ok: false, message: CHARITY_NUMBER_MESSAGES.scotland };
  }
  if (/^\d+$/.test(compact)) {
    return compact.length >= 6 && compact.length <= 8
      ? { ok: true, number: compact, register: 'england_wales' }
      : { ok: false, message: CHARITY_NUMBER_MESSAGES.englandWales };
  }
  return { ok: false, message: CHARITY_NUMBER_MESSAGES.unknown };
}

export const charityNumberSchema = z.string().transform((value, ctx) => {
  const parsed = parseCharityNumber(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.number;
});

// Sign-up --------------------------------------------------------------------------------------

export const CHARITY_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type CharityStatus = (typeof CHARITY_STATUSES)[number];

const postcodeSchema = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase().replace(/\s+/g, ''))
  .refine((value) => /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(value), 'Enter a UK postcode, like OX16 5QA')
  .transform((value) => `${value.slice(0, -3)} ${value.slice(-3)}`);

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional()
    .transform((value) => value ?? null);

export const charitySignupInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(2, 'Enter your charity’s name')
    .max(120, 'The name can be at most 120 characters'),
  registeredNumber: charityNumberSchema,
  contactName: z.string().trim().min(1, 'Enter the name of the person we should contact').max(100),
  contactEmail: z.email('Enter an email address we can reach you at').max(254).toLowerCase(),
  contactPhone: optionalText(30, 'The phone number can be at most 30 characters'),
  addressLine1: z.string().trim().min(1, 'Enter the first line of your address').max(100),
  addressLine2: optionalText(100, 'The second address line can be at most 100 characters'),
  town: z.string().trim().min(1, 'Enter your town or city').max(80),
  postcode: postcodeSchema,
  description: optionalText(2000, 'The description can be at most 2,000 characters'),
  website: z
    .string()
    .trim()
    .max(2048)
    .transform((value) => (value === '' ? null : /^https?:\/\//i.test(value) ? value : `https://${value}`))
    .refine(
      (value) => value === null || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value),
      'Enter your website’s address, like https://example.org',
    )
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  logoUrl: z.string().max(2048).nullable().optional(),
});
export type CharitySignupInput = z.input<typeof charitySignupInputSchema>;

export const CHARITY_LOGO_PATH = '/api/uploads/charity-logo';
export const CHARITY_IMPORT_PATH = '/api/uploads/charity-listings';

export const myCharitySchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    status: z.enum(CHARITY_STATUSES),
    role: z.enum(['owner', 'staff']),
    registeredNumber: z.string(),
    town: z.string().nullable(),
    logoUrl: z.string().nullable(),
    rejectionReason: z.string().nullable(),
    createdAt: z.string(),
    approvedAt: z.string().nullable(),
  })
  .nullable();
export type MyCharity = z.infer<typeof myCharitySchema>;

export const charityInvitationSchema = z.object({
  id: z.uuid(),
  charityName: z.string(),
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type CharityInvitation = z.infer<typeof charityInvitationSchema>;

export const charityTeamSchema = z.object({
  members: z.array(
    z.object({
      userId: z.uuid(),
      name: z.string(),
      email: z.string().nullable(),
      role: z.enum(['owner', 'staff']),
    }),
  ),
  invitations: z.array(z.object({ id: z.uuid(), email: z.string(), createdAt: z.string() })),
});
export type CharityTeam = z.infer<typeof charityTeamSchema>;

// Staff review ---------------------------------------------------------------------------------

export const charityApplicationSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  registeredNumber: z.string(),
  register: z.enum(['england_wales', 'scotland', 'northern_ireland']),
  status: z.enum(CHARITY_STATUSES),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  address: z.string().nullable(),
  description: z.string().nullable(),
  website: z.string().nullable(),
  logoUrl: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type CharityApplication = z.infer<typeof charityApplicationSchema>;

export const charityReviewInputSchema = z.discriminatedUnion('decision', [
  z.object({ charityId: z.uuid(), decision: z.literal('approve') }),
  z.object({
    charityId: z.uuid(),
    decision: z.literal('reject'),
    reason: z
      .string()
      .trim()
      .min(10, 'Tell the charity why, in at least 10 characters: they will read it in their email')
      .max(1000, 'The reason can be at most 1,000 characters'),
  }),
]);
export type CharityReviewInput = z.input<typeof charityReviewInputSchema>;

// Bulk listing ---------------------------------------------------------------------------------

export const BULK_LIMITS = {
  maxRows: 2000,
  maxFileBytes: 5 * 1024 * 1024,
  /** Rows listed in one transaction. */
  batchSize: 100,
} as const;

/** The columns of a bulk-listing CSV, in the template's order. Header names ignore case and spaces. */
export const BULK_COLUMNS = [
  { key: 'isbn', required: true, hint: 'ISBN-10 or ISBN-13, hyphens allowed' },
  { key: 'condition', required: true, hint: 'Like new, Very good, Good or Well read' },
  { key: 'price', required: true, hint: 'In pounds, like 4.50' },
  { key: 'notes', required: false, hint: 'About this copy: shown to buyers (at most 2,000 characters)' },
  { key: 'donor_reference', required: false, hint: 'Your Gift Aid donor reference, like D-00123' },
  { key: 'photo_url', required: false, hint: 'A photo of the copy at an https:// address' },
  { key: 'parcel_size', required: false, hint: 'small (the default), medium or large' },
  { key: 'title', required: false, hint: 'Needed only when we do not know the ISBN' },
  { key: 'author', required: false, hint: 'Needed only when we do not know the ISBN' },
  // Collectors' details (decision 0082): yes or no (blank is no), and two grades.
  { key: 'first_edition', required: false, hint: 'yes if it is a first edition' },
  { key: 'first_printing', required: false, hint: 'yes if it is a first printing' },
  { key: 'signed', required: false, hint: 'yes if the author signed it' },
  { key: 'inscribed', required: false, hint: 'yes if the author wrote in it to someone' },
  { key: 'ex_library', required: false, hint: 'yes if it came from a library' },
  { key: 'book_club', required: false, hint: 'yes if it is a book club edition' },
  { key: 'print_on_demand', required: false, hint: 'yes if it was printed on demand' },
  {
    key: 'dust_jacket',
    required: false,
    hint: 'The jacket’s grade: Fine, Near Fine, Very Good, Good, Fair or Poor; none if it has none',
  },
  {
    key: 'bookman_grade',
    required: false,
    hint: 'For a first edition or printing, signed or inscribed copy: its grade on the same scale (blank: as its condition)',
  },
] as const;
export type BulkColumn = (typeof BULK_COLUMNS)[number]['key'];

/** The column of each collectors' attribute. */
export const BULK_ATTRIBUTE_COLUMNS: Record<CopyAttribute, BulkColumn> = {
  firstEdition: 'first_edition',
  firstPrinting: 'first_printing',
  signed: 'signed',
  inscribed: 'inscribed',
  exLibrary: 'ex_library',
  bookClub: 'book_club',
  printOnDemand: 'print_on_demand',
};

export const BULK_TEMPLATE_CSV = [
  BULK_COLUMNS.map((column) => column.key).join(','),
  '9780141439518,Very good,4.50,Light shelf wear to the cover,D-00123,,small,,,,,,,,,,,',
  '978-0-14-143966-2,Good,3.00,,D-00124,,,,,,,,,yes,,,,',
  '9780951234563,Like new,6.00,Signed by the author,,https://example.org/photos/signed-copy.jpg,medium,A Local History of Banbury,J. Smith,yes,,yes,,,,,Near Fine,Near Fine',
].join('\r\n');

export const DONOR_REFERENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,39}$/;

export const BULK_MESSAGES = {
  missingColumns: (names: string[]) =>
    `The file has no ${names.join(', ')} ${plural(names.length, 'column', 'columns')}. Start from the template: its first row names the columns.`,
  unknownColumns: (names: string[]) =>
    `We don’t know the ${plural(names.length, 'column', 'columns')} ${names.join(', ')}. Use the template’s column names.`,
  empty: 'The file has no rows under its header. Add one row per book.',
  tooManyRows: `A file can have at most ${BULK_LIMITS.maxRows.toLocaleString('en-GB')} books. Split it into smaller files.`,
  tooBig: `The file is over ${BULK_LIMITS.maxFileBytes / 1024 / 1024} MB. Split it into smaller files.`,
  notCsv:
    'We couldn’t read that file as CSV. Save it from your spreadsheet as “CSV (comma delimited)” and try again.',
  isbnMissing: 'ISBN is missing',
  isbn: (problem: string) => `ISBN: ${problem}`,
  conditionMissing: `Condition is missing: use ${CONDITIONS.map((c) => CONDITION_LABELS[c]).join(', ')}`,
  conditionUnknown: (value: string) =>
    `Condition “${value}” isn’t one we use: write ${CONDITIONS.map((c) => CONDITION_LABELS[c]).join(', ')}`,
  priceMissing: 'Price is missing: write it in pounds, like 4.50',
  priceNotPence: (value: string) => `Price “${value}” isn’t an amount in pounds and pence, like 4.50`,
  priceTooLow: SELLING_MESSAGES.priceTooLow,
  priceTooHigh: SELLING_MESSAGES.priceTooHigh,
  notesTooLong: 'Notes can be at most 2,000 characters',
  donorReference:
    'Donor reference can have letters, digits, spaces and . _ / - only, up to 40 characters, starting with a letter or digit',
  photoUrl: 'Photo URL must be a web address starting with https://',
  parcelSize: (value: string) => `Parcel size “${value}” isn’t one we use: write small, medium or large`,
  titleTooLong: 'Title can be at most 300 characters',
  authorTooLong: 'Author can be at most 200 characters',
  yesNo: (column: string, value: string) => `${column} “${value}” isn’t yes or no`,
  dustJacket: (value: string) =>
    `dust_jacket “${value}” isn’t a grade we use: write Fine, Near Fine, Very Good, Good, Fair, Poor or none`,
  bookmanGrade: (value: string) =>
    `bookman_grade “${value}” isn’t a grade we use: write Fine, Near Fine, Very Good, Good, Fair or Poor`,
  bookmanNotCollectable: `bookman_grade: ${COLLECTOR_MESSAGES.bookmanNotCollectable}`,
  duplicate: (row: number) =>
    `Duplicate of row ${row}: the same book, condition, price and notes. If you have two copies, say how they differ in the notes.`,
} as const;

/** A valid row, ready to list. */
export interface BulkItem {
  isbn13: string;
  condition: Condition;
  priceMinor: number;
  parcelSize: (typeof PARCEL_SIZES)[number];
  notes: string | null;
  donorReference: string | null;
  photoUrl: string | null;
  title: string | null;
  author: string | null;
  /** Collectors' details; absent from rows stored before they were read (all no, unsaid). */
  collector?: BulkCollector;
}

/** A row's collectors' details, as the listing stores them. */
export type BulkCollector = Record<CopyAttribute, boolean> & {
  dustJacket: DustJacketState | null;
  bookmanGrade: BookmanGrade | null;
};

const YES = new Set(['yes', 'y', 'true', '1', 'x']);
const NO = new Set(['', 'no', 'n', 'false', '0']);

/** A grade as typed ("Near Fine", "near-fine", "VERY GOOD"), or null. */
function gradeOf<T extends string>(value: string, grades: readonly T[]): T | null {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return (grades as readonly string[]).includes(key) ? (key as T) : null;
}

/** The collectors' columns of a row: the details, with each problem pushed to `errors`. */
function collectorOf(text: (key: BulkColumn) => string, errors: string[]): BulkCollector {
  const flags = {} as Record<CopyAttribute, boolean>;
  for (const attribute of COPY_ATTRIBUTES) {
    const column = BULK_ATTRIBUTE_COLUMNS[attribute];
    const value = text(column);
    const said = value.toLowerCase();
    if (!YES.has(said) && !NO.has(said)) errors.push(BULK_MESSAGES.yesNo(column, value));
    flags[attribute] = YES.has(said);
  }
  const jacketText = text('dust_jacket');
  const jacket =
    jacketText === '' ? null : gradeOf(jacketText.replace(/^no(ne)?$/i, 'none'), DUST_JACKET_STATES);
  if (jacketText !== '' && !jacket) errors.push(BULK_MESSAGES.dustJacket(jacketText));
  const gradeText = text('bookman_grade');
  const grade = gradeText === '' ? null : gradeOf(gradeText, BOOKMAN_GRADES);
  if (gradeText !== '' && !grade) errors.push(BULK_MESSAGES.bookmanGrade(gradeText));
  if (grade && !isCollectable(flags)) errors.push(BULK_MESSAGES.bookmanNotCollectable);
  return { ...flags, dustJacket: jacket, bookmanGrade: grade };
}

function normaliseHeader(name: string): string {
  return name
    .trim()
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Header aliases a spreadsheet is likely to have. */
const HEADER_ALIASES: Record<string, BulkColumn> = {
  isbn13: 'isbn',
  isbn_13: 'isbn',
  isbn10: 'isbn',
  price_gbp: 'price',
  'price_(£)': 'price',
  price_pounds: 'price',
  donor: 'donor_reference',
  donor_ref: 'donor_reference',
  gift_aid_reference: 'donor_reference',
  photo: 'photo_url',
  parcel: 'parcel_size',
  authors: 'author',
};

/** Maps a file's header to our columns: what each position is, and what is missing or unknown. */
export function mapBulkHeader(header: string[]): {
  columns: (BulkColumn | null)[];
  missing: string[];
  unknown: string[];
} {
  const known = new Set<string>(BULK_COLUMNS.map((column) => column.key));
  const columns = header.map((raw) => {
    const name = normaliseHeader(raw);
    const key = HEADER_ALIASES[name] ?? name;
    return known.has(key) ? (key as BulkColumn) : null;
  });
  const missing = BULK_COLUMNS.filter((column) => column.required && !columns.includes(column.key)).map(
    (column) => column.key,
  );
  // The corrections file's "problems" column says what was wrong: it is ignored on upload.
  const unknown = header.filter(
    (raw, index) => columns[index] === null && raw.trim() !== '' && normaliseHeader(raw) !== 'problems',
  );
  return { columns, missing, unknown };
}

function conditionOf(value: string): Condition | null {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return (CONDITIONS as readonly string[]).includes(key) ? (key as Condition) : null;
}

const empty = (value: string | undefined) => (value ?? '').trim() === '';

/** Checks one row's cells: the item to list, or every problem with it (never just the first). */
export function validateBulkRow(
  cells: Partial<Record<BulkColumn, string>>,
): { ok: true; item: BulkItem } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const text = (key: BulkColumn) => (cells[key] ?? '').trim();

  let isbn13: string | null = null;
  if (empty(cells.isbn)) errors.push(BULK_MESSAGES.isbnMissing);
  else {
    const parsed = parseIsbn(text('isbn'));
    if (parsed.ok) isbn13 = parsed.isbn13;
    else errors.push(BULK_MESSAGES.isbn(ISBN_MESSAGES[parsed.problem]));
  }

  let condition: Condition | null = null;
  if (empty(cells.condition)) errors.push(BULK_MESSAGES.conditionMissing);
  else {
    condition = conditionOf(text('condition'));
    if (!condition) errors.push(BULK_MESSAGES.conditionUnknown(text('condition')));
  }

  let priceMinor: number | null = null;
  if (empty(cells.price)) errors.push(BULK_MESSAGES.priceMissing);
  else {
    priceMinor = parsePounds(text('price'));
    if (priceMinor === null) errors.push(BULK_MESSAGES.priceNotPence(text('price')));
    else if (priceMinor < SELLING_LIMITS.minPriceMinor) errors.push(BULK_MESSAGES.priceTooLow);
    else if (priceMinor > COMMERCIAL_DEFAULTS.maxPriceMinor) errors.push(BULK_MESSAGES.priceTooHigh);
  }

  const notes = text('notes') || null;
  if (notes && notes.length > SELLING_LIMITS.maxConditionNotes) errors.push(BULK_MESSAGES.notesTooLong);

  const donorReference = text('donor_reference') || null;
  if (donorReference && !DONOR_REFERENCE_PATTERN.test(donorReference))
    errors.push(BULK_MESSAGES.donorReference);

  const photoUrl = text('photo_url') || null;
  if (photoUrl && !/^https:\/\/[^\s/]+\.[^\s]+$/i.test(photoUrl)) errors.push(BULK_MESSAGES.photoUrl);
  else if (photoUrl && photoUrl.length > 2048) errors.push(BULK_MESSAGES.photoUrl);

  let parcelSize: BulkItem['parcelSize'] = 'small';
  if (!empty(cells.parcel_size)) {
    const size = text('parcel_size').toLowerCase();
    if ((PARCEL_SIZES as readonly string[]).includes(size)) parcelSize = size as BulkItem['parcelSize'];
    else errors.push(BULK_MESSAGES.parcelSize(text('parcel_size')));
  }

  const title = text('title') || null;
  if (title && title.length > SELLING_LIMITS.maxTitle) errors.push(BULK_MESSAGES.titleTooLong);
  const author = text('author') || null;
  if (author && author.length > SELLING_LIMITS.maxAuthorLength) errors.push(BULK_MESSAGES.authorTooLong);

  const collector = collectorOf(text, errors);

  if (errors.length > 0 || !isbn13 || !condition || priceMinor === null) return { ok: false, errors };
  return {
    ok: true,
    item: {
      isbn13,
      condition,
      priceMinor,
      parcelSize,
      notes,
      donorReference,
      photoUrl,
      title,
      author,
      collector,
    },
  };
}

/** What makes two rows the same copy: the book, condition, price, notes, donor and photo. */
export function bulkItemKey(item: BulkItem): string {
  return JSON.stringify([
    item.isbn13,
    item.condition,
    item.priceMinor,
    (item.notes ?? '').toLowerCase().replace(/\s+/g, ' '),
    (item.donorReference ?? '').toLowerCase(),
    item.photoUrl ?? '',
    // A signed copy and an unsigned one are two copies (absent: all no, unsaid).
    item.collector ?? null,
  ]);
}

export const BULK_ROW_STATUSES = ['pending', 'invalid', 'listed', 'draft', 'failed'] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

export const bulkImportSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  status: z.enum(['processing', 'done']),
  totalRows: z.number().int(),
  invalidRows: z.number().int(),
  processedRows: z.number().int(),
  listedRows: z.number().int(),
  draftRows: z.number().int(),
  failedRows: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The same file had been uploaded before: this is that upload's report. */
  repeated: z.boolean(),
});
export type BulkImport = z.infer<typeof bulkImportSchema>;

export const bulkImportRowSchema = z.object({
  rowNumber: z.number().int(),
  status: z.enum(BULK_ROW_STATUSES),
  isbn: z.string(),
  title: z.string().nullable(),
  errors: z.array(z.string()),
  listingId: z.string().nullable(),
  listingSlug: z.string().nullable(),
});
export type BulkImportRow = z.infer<typeof bulkImportRowSchema>;

export const bulkImportReportSchema = z.object({
  import: bulkImportSchema,
  rows: z.array(bulkImportRowSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type BulkImportReport = z.infer<typeof bulkImportReportSchema>;

export const BULK_ROW_STATUS_LABELS: Record<BulkRowStatus, string> = {
  pending: 'Waiting',
  invalid: 'Needs correcting',
  listed: 'Listed',
  draft: 'Saved as a draft',
  failed: 'Not listed',
};

// Returns ----------------------------------------------------------------------------------------

export const RETURN_STATUSES = ['requested', 'accepted', 'declined', 'refunded'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: 'Return requested',
  accepted: 'Return accepted: send the book back',
  declined: 'Return declined',
  refunded: 'Refunded',
};
/** The same states as the seller or charity reads them: what they have to do, or wait for. */
export const SELLER_RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: 'Return requested: answer the buyer',
  accepted: 'Accepted: waiting for the book to come back',
  declined: 'Return declined',
  refunded: 'Refunded',
};
export const RETURN_DAYS = COMMERCIAL_DEFAULTS.charityReturnDays;

export const returnReasonSchema = z
  .string()
  .trim()
  .min(5, 'Say why you are sending it back, in at least 5 characters')
  .max(1000, 'Keep it to 1,000 characters');

/** Why the seller or charity declines a return: the buyer reads it. */
export const declineReasonSchema = z
  .string()
  .trim()
  .min(5, 'Tell the buyer why, in at least 5 characters')
  .max(1000, 'Keep it to 1,000 characters');

/** A buyer's request to return an order's books, or some of them (`itemIds`, order items). */
export const requestReturnInputSchema = z.object({
  orderId: z.uuid('Unknown order'),
  reason: returnReasonSchema,
  itemIds: z
    .array(z.uuid('Unknown book'))
    .min(1, 'Choose at least one book to return')
    .max(50, 'An order has at most 50 books')
    .optional(),
});

/** A book of a charity order, as a return names it (a return may name some books). */
export const returnBookSchema = z.object({ orderItemId: z.uuid(), title: z.string() });

export const returnRequestSchema = z.object({
  id: z.uuid(),
  orderId: z.uuid(),
  orderReference: z.string(),
  /** The books going back: "Title", or "Title and 2 more books". */
  title: z.string(),
  /** The books going back (every book of the order when the request named none). */
  books: z.array(returnBookSchema),
  charityName: z.string(),
  status: z.enum(RETURN_STATUSES),
  reason: z.string(),
  declineReason: z.string().nullable(),
  refundMinor: z.number().int().nullable(),
  returnAddress: z.string().nullable(),
  createdAt: z.string(),
  respondedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  buyerName: z.string().nullable(),
  /** The buyer's posting back (the same tracking step as a dispute's return). */
  returnCarrier: z.string().nullable(),
  returnTrackingRef: z.string().nullable(),
  returnSentAt: z.string().nullable(),
});
export type ReturnRequest = z.infer<typeof returnRequestSchema>;

/** What a buyer may do about returning an order, with the reason when they cannot. */
export const returnEligibilitySchema = z.object({
  orderId: z.uuid(),
  charityOrder: z.boolean(),
  /** Its books may go back for a change of mind: a charity's, or a private seller's who accepts returns. */
  returnsOffered: z.boolean(),
  /** The days after delivery a return may be asked for. */
  windowDays: z.number().int(),
  eligible: z.boolean(),
  /** The last moment a return may be requested (`windowDays` after delivery). */
  deadline: z.string().nullable(),
  reason: z.string().nullable(),
  request: returnRequestSchema.nullable(),
  /** The order's books, for choosing which go back (not those already refunded). */
  books: z.array(returnBookSchema.extend({ returnable: z.boolean() })),
});
export type ReturnEligibility = z.infer<typeof returnEligibilitySchema>;

// Dashboard and Gift Aid -----------------------------------------------------------------------

/**
 * The UK tax year a moment falls in, by its start year: 6 April to 5 April, in London time.
 * 5 April 2026 is in 2025 (2025-26); 6 April 2026 is in 2026 (2026-27).
 */
export function taxYearOf(date: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(date);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const year = part('year');
  const month = part('month');
  const day = part('day');
  return month > 4 || (month === 4 && day >= 6) ? year : year - 1;
}

/** "2025-26" for the tax year starting 6 April 2025. */
export function taxYearLabel(startYear: number): string {
  return `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`;
}

export const giftAidInputSchema = z.object({
  taxYear: z.number().int().min(2000).max(2100),
});

export const giftAidSummarySchema = z.object({
  taxYear: z.number().int(),
  label: z.string(),
  donors: z.array(
    z.object({
      donorReference: z.string(),
      itemsSold: z.number().int(),
      proceedsMinor: z.number().int(),
    }),
  ),
  totalMinor: z.number().int(),
  itemsSold: z.number().int(),
  /** Tax years with any sale of a donor's item, newest first. */
  years: z.array(z.number().int()),
});
export type GiftAidSummary = z.infer<typeof giftAidSummarySchema>;

export const csvFileSchema = z.object({ fileName: z.string(), csv: z.string() });

export const charityDashboardSchema = z.object({
  /**
   * Books sold (an order holds one or more) and what they earned the charity: the same
   * figures as its sales analytics (the money definitions' sold_books, decision 0051).
   */
  sales: z.object({
    ordersCount: z.number().int(),
    booksCount: z.number().int(),
    earningsMinor: z.number().int(),
    last30Count: z.number().int(),
    last30Books: z.number().int(),
    last30Minor: z.number().int(),
  }),
  /** Listings by status (a listing sold in an order later refunded is still "sold" here). */
  listingsByStatus: z.array(z.object({ status: z.string(), count: z.number().int() })),
  payouts: z.object({
    heldMinor: z.number().int(),
    releasedMinor: z.number().int(),
    cancelledMinor: z.number().int(),
  }),
  topCategories: z.array(
    z.object({ name: z.string(), sold: z.number().int(), earningsMinor: z.number().int() }),
  ),
  monthly: z.array(
    z.object({
      month: z.string(),
      orders: z.number().int(),
      books: z.number().int(),
      earningsMinor: z.number().int(),
    }),
  ),
  openReturns: z.number().int(),
});
export type CharityDashboard = z.infer<typeof charityDashboardSchema>;
