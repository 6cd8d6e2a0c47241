/**
 * Parcels (issue 37, decision 0083): the postage bands, how a book's weight and thickness are
 * estimated, the delivery methods a buyer chooses between, the carriers' scans and every text
 * about them. Constants and pure functions only (no zod): the web's first load may read them.
 *
 * The one rule for a parcel's band and price is `parcelFor` + `postageFor`; checkout, the
 * basket, the catalogue's "+ postage from", the label purchase and the ledger all call these.
 */
import type { BookFormat } from './catalogue.ts';
import type { ParcelSize } from './constants.ts';
import type { Carrier } from './orders.ts';

// Bands ----------------------------------------------------------------------------------------

export const POSTAGE_BANDS = ['large_letter', 'small_parcel', 'medium_parcel'] as const;
export type PostageBand = (typeof POSTAGE_BANDS)[number];

export const POSTAGE_BAND_LABELS: Record<PostageBand, string> = {
  large_letter: 'Large Letter',
  small_parcel: 'Small Parcel',
  medium_parcel: 'Medium Parcel',
};

/** The UK carriers' size and weight limits for each band (Royal Mail's, which InPost and Evri match or exceed). */
export const POSTAGE_BAND_LIMITS: Record<
  PostageBand,
  { lengthMm: number; widthMm: number; thicknessMm: number; weightG: number }
> = {
  large_letter: { lengthMm: 353, widthMm: 250, thicknessMm: 25, weightG: 750 },
  small_parcel: { lengthMm: 450, widthMm: 350, thicknessMm: 160, weightG: 2_000 },
  medium_parcel: { lengthMm: 610, widthMm: 460, thicknessMm: 460, weightG: 20_000 },
};

// How to get it to the buyer ------------------------------------------------------------------

export const DELIVERY_METHODS = ['home', 'drop_off'] as const;
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

export const DELIVERY_METHOD_LABELS: Record<DeliveryMethod, string> = {
  home: 'Home delivery (tracked)',
  drop_off: 'Collect from a locker or parcel shop',
};

/**
 * What a label costs, in pence, per band and method: the carrier's contract tariff, which the
 * buyer pays (staff can change it in the commercial settings; these are the starting values).
 * A drop-off point costs less than a van to the door, as at InPost, Evri and Royal Mail.
 */
export type PostageRateCard = Record<PostageBand, Record<DeliveryMethod, number>>;
export const DEFAULT_POSTAGE_RATES: PostageRateCard = {
  large_letter: { drop_off: 229, home: 289 },
  small_parcel: { drop_off: 299, home: 379 },
  medium_parcel: { drop_off: 499, home: 629 },
};

/** Working days from the first scan to the door or the locker, for the expected delivery date. */
export const DELIVERY_TRANSIT_WORKING_DAYS: Record<DeliveryMethod, number> = { home: 2, drop_off: 3 };

/** The networks a drop-off point belongs to; a home delivery goes by Royal Mail Tracked 48. */
export const CARRIER_NETWORKS = ['royal_mail', 'inpost', 'evri'] as const;
export type CarrierNetwork = (typeof CARRIER_NETWORKS)[number];
export const CARRIER_NETWORK_LABELS: Record<CarrierNetwork, string> = {
  royal_mail: 'Royal Mail',
  inpost: 'InPost',
  evri: 'Evri',
};
export const HOME_DELIVERY_NETWORK: CarrierNetwork = 'royal_mail';
/** The order's carrier (CARRIERS) when a network's label is scanned: home goes Royal Mail Tracked 48. */
export const NETWORK_CARRIER: Record<CarrierNetwork, Carrier> = {
  royal_mail: 'royal_mail_tracked_48',
  inpost: 'inpost',
  evri: 'evri',
};

export const DROP_OFF_POINT_KINDS = ['locker', 'parcel_shop', 'post_office'] as const;
export type DropOffPointKind = (typeof DROP_OFF_POINT_KINDS)[number];
export const DROP_OFF_POINT_KIND_LABELS: Record<DropOffPointKind, string> = {
  locker: 'Locker',
  parcel_shop: 'Parcel shop',
  post_office: 'Post Office',
};

// Estimating a book -----------------------------------------------------------------------------

export interface ParcelBook {
  /** The listing's format; unknown is taken as a paperback. */
  format: BookFormat | string | null;
  /** The edition's page count; unknown takes the typical count for the seller's size. */
  pageCount: number | null;
  /** The seller's size (small = a paperback, medium = a hardback or trade paperback, large = a large book). */
  parcelSize: ParcelSize;
}

export interface BookEstimate {
  weightG: number;
  thicknessMm: number;
  lengthMm: number;
  widthMm: number;
}

/** The trim the seller's size stands for: B-format paperback, demy/royal, and a large illustrated book. */
const TRIM_MM: Record<ParcelSize, { length: number; width: number; typicalPages: number }> = {
  small: { length: 198, width: 129, typicalPages: 320 },
  medium: { length: 240, width: 160, typicalPages: 400 },
  large: { length: 290, width: 230, typicalPages: 240 },
};

/** Paper: grams per square metre of a leaf (two pages) and millimetres per page. */
const PAPER = {
  paperback: { gsm: 70, mmPerPage: 0.06, coverG: 12, coverMm: 1 },
  hardback: { gsm: 90, mmPerPage: 0.07, coverG: 140, coverMm: 6 },
} as const;
/** A large (illustrated) book is on heavier, coated paper. */
const LARGE_GSM = 130;

/**
 * A book's weight and thickness from its format and pages (decision 0083): the leaves' area
 * times the paper's weight, plus the cover; pages times the paper's thickness, plus the boards.
 * A 320-page B-format paperback comes to about 300 g and 21 mm (a Large Letter); a 400-page
 * hardback to about 900 g and 34 mm (a Small Parcel).
 */
export function estimateBook(book: ParcelBook): BookEstimate {
  const trim = TRIM_MM[book.parcelSize];
  const pages =
    book.pageCount !== null && Number.isInteger(book.pageCount) && book.pageCount > 0
      ? Math.min(book.pageCount, 2_000)
      : trim.typicalPages;
  const paper = book.format === 'hardback' ? PAPER.hardback : PAPER.paperback;
  const gsm = book.parcelSize === 'large' ? LARGE_GSM : paper.gsm;
  const leafAreaM2 = (trim.length / 1000) * (trim.width / 1000);
  const coverScale = leafAreaM2 / ((TRIM_MM.small.length / 1000) * (TRIM_MM.small.width / 1000));
  const weightG = Math.round((pages / 2) * leafAreaM2 * gsm + paper.coverG * coverScale);
  const thicknessMm = Math.ceil(pages * paper.mmPerPage + paper.coverMm);
  return { weightG, thicknessMm, lengthMm: trim.length, widthMm: trim.width };
}

/** The mailer or box and its padding. */
export const PACKAGING = { weightG: 40, thicknessMm: 3, marginMm: 10 } as const;

export interface Parcel {
  band: PostageBand;
  weightG: number;
  thicknessMm: number;
  lengthMm: number;
  widthMm: number;
  bookCount: number;
}

/** Said when a seller's books would not go in one Medium Parcel (20 kg). */
export const PARCEL_TOO_HEAVY =
  'These books weigh more than one parcel can take (20 kg): buy them in two orders.';

/**
 * One parcel from its books, stacked: weights and thicknesses add up, the largest trim decides
 * the footprint, the packaging goes round it. The band is the first whose limits it fits.
 * Throws RangeError(PARCEL_TOO_HEAVY) past a Medium Parcel.
 */
export function parcelFor(books: readonly ParcelBook[]): Parcel {
  if (books.length === 0) throw new RangeError('parcelFor needs at least one book');
  const estimates = books.map(estimateBook);
  const weightG = estimates.reduce((sum, e) => sum + e.weightG, 0) + PACKAGING.weightG;
  const thicknessMm = estimates.reduce((sum, e) => sum + e.thicknessMm, 0) + PACKAGING.thicknessMm;
  const lengthMm = Math.max(...estimates.map((e) => e.lengthMm)) + PACKAGING.marginMm;
  const widthMm = Math.max(...estimates.map((e) => e.widthMm)) + PACKAGING.marginMm;
  const band = POSTAGE_BANDS.find((candidate) => {
    const limit = POSTAGE_BAND_LIMITS[candidate];
    return (
      weightG <= limit.weightG &&
      thicknessMm <= limit.thicknessMm &&
      lengthMm <= limit.lengthMm &&
      widthMm <= limit.widthMm
    );
  });
  if (!band) throw new RangeError(PARCEL_TOO_HEAVY);
  return { band, weightG, thicknessMm, lengthMm, widthMm, bookCount: books.length };
}

/** What the label costs, which is what the buyer pays for postage. */
export function postageFor(
  band: PostageBand,
  method: DeliveryMethod,
  rates: PostageRateCard = DEFAULT_POSTAGE_RATES,
): number {
  return rates[band][method];
}

/** The cheapest way to send this parcel: the "+ postage from" a listing shows. */
export function postageFromFor(band: PostageBand, rates: PostageRateCard = DEFAULT_POSTAGE_RATES): number {
  return Math.min(...DELIVERY_METHODS.map((method) => rates[band][method]));
}

// Labels ------------------------------------------------------------------------------------------

export const LABEL_FORMATS = ['a4', 'thermal_4x6', 'qr'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
export const LABEL_FORMAT_LABELS: Record<LabelFormat, string> = {
  a4: 'A4 label (PDF)',
  thermal_4x6: '4×6 inch thermal label (PDF)',
  qr: 'QR code for printer-free drop-off',
};

/** Where a label is downloaded (the BFF's route, cookie-authenticated: the sender or staff). */
export const LABELS_PATH = '/labels';
export function labelPath(shipmentId: string, format: LabelFormat): string {
  return `${LABELS_PATH}/${shipmentId}/${format === 'qr' ? 'qr.svg' : `${format}.pdf`}`;
}

/** Who pays for a label: the buyer at checkout, the seller (a fault return), or the buyer on a change-of-mind return. */
export const LABEL_PAYERS = ['buyer', 'seller', 'reshelf'] as const;
export type LabelPayer = (typeof LABEL_PAYERS)[number];

// Shipments and scans -------------------------------------------------------------------------------

export const SHIPMENT_DIRECTIONS = ['outbound', 'return'] as const;
export type ShipmentDirection = (typeof SHIPMENT_DIRECTIONS)[number];

/** The carrier's scans, in the order a parcel usually meets them. */
export const SCAN_STATUSES = [
  'accepted',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'delivery_failed',
  'returned_to_sender',
] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

/** A shipment's state: its label's, then its latest scan's. */
export const SHIPMENT_STATUSES = ['buying', 'label_failed', 'label_ready', ...SCAN_STATUSES] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** Scans after which nothing moves the parcel on (a later, older scan does not undo them). */
export const FINAL_SCAN_STATUSES: readonly ScanStatus[] = ['delivered', 'returned_to_sender'];

export const SHIPMENT_STATUS_TEXT: Record<ShipmentStatus, string> = {
  buying: 'Buying the label',
  label_failed: 'The label could not be bought',
  label_ready: 'Label ready: waiting for the parcel to be dropped off',
  accepted: 'Accepted by the carrier',
  in_transit: 'On its way',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  delivery_failed: 'Delivery failed',
  returned_to_sender: 'Returned to the sender',
};

/** A seller (or charity) with no address to post from asks for a label. */
export const ADD_SENDER_ADDRESS =
  'Add the address you post from, then get the label: it is printed on the label as the sender.';

/** When a label cannot be bought (the carrier is down or refuses): the sale stands, try again. */
export const LABEL_UNAVAILABLE =
  'The carrier is not answering, so we could not buy the label. Your sale is safe: try again in a few minutes.';
