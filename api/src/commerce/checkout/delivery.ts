/**
 * The buyer's delivery choice at checkout (issue 37, decision 0083): home delivery (tracked) or a
 * locker or parcel shop near a postcode. The point is looked up with the carrier (outside the
 * order's transaction: a carrier may be a network call away), checked against the parcel's band
 * (a locker takes up to a Small Parcel), and the order keeps the method, the point as the buyer
 * saw it, the parcel and the expected delivery date. The prices are the quote's (pricing/quote.ts).
 */
import {
  COMMERCIAL_DEFAULTS,
  DELIVERY_METHOD_LABELS,
  DELIVERY_TRANSIT_WORKING_DAYS,
  type DeliveryChoice,
  type DeliveryMethod,
  type DeliveryQuote,
  type DropOffPoint,
  POSTAGE_BAND_LABELS,
  type PostageBand,
} from '@reshelf/contracts';
import type { Insertable } from 'kysely';
import type { Orders } from '../../db/database.generated.ts';
import { AppError } from '../../errors.ts';
import type { RateRule } from '../../http/rate-limit.ts';
import {
  addWorkingDays,
  type BankHolidayRegion,
  bankHolidayRegionOf,
} from '../../platform/calendar/working-days.ts';
import { type CarrierProvider, takesBand } from '../../platform/carriers/index.ts';
import type { PricedGroup } from '../pricing/quote.ts';

export const DROP_OFF_POINT_UNKNOWN =
  'We couldn’t find that locker or parcel shop any more: choose another one near you.';
export const DROP_OFF_POINT_TOO_SMALL =
  'This parcel is too big for a locker: choose a parcel shop or Post Office, or home delivery.';
export const DROP_OFF_UNAVAILABLE =
  'Lockers and parcel shops can’t be chosen just now: choose home delivery, or try again in a few minutes.';

/** How many points a search answers. */
export const DROP_OFF_SEARCH_LIMIT = 8;
/** Searches per address per minute: a buyer types a postcode or two, not hundreds. */
export const DROP_OFF_SEARCH_RATE: RateRule = { bucket: 'drop_off_search', limit: 30, windowSeconds: 60 };

/** The points nearest a postcode that take a parcel of this band (the carrier's answer). */
export async function searchDropOffPoints(
  carriers: CarrierProvider | undefined,
  postcode: string,
  band: PostageBand | null,
  limit: number,
): Promise<DropOffPoint[]> {
  if (!carriers) throw new AppError('UNAVAILABLE', DROP_OFF_UNAVAILABLE);
  try {
    return await carriers.dropOffPoints(postcode, band, limit);
  } catch (error) {
    throw new AppError('UNAVAILABLE', DROP_OFF_UNAVAILABLE, { cause: String(error) });
  }
}

/** The carrier's point the buyer chose (null for home delivery); refused when it is not known. */
export async function resolveDropOffPoint(
  carriers: CarrierProvider | undefined,
  choice: DeliveryChoice | undefined,
): Promise<DropOffPoint | null> {
  if (!choice || choice.method === 'home') return null;
  if (!carriers) throw new AppError('UNAVAILABLE', DROP_OFF_UNAVAILABLE);
  let point: DropOffPoint | null;
  try {
    point = await carriers.dropOffPoint(choice.pointId);
  } catch (error) {
    throw new AppError('UNAVAILABLE', DROP_OFF_UNAVAILABLE, { cause: String(error) });
  }
  if (!point) throw new AppError('BAD_INPUT', DROP_OFF_POINT_UNKNOWN);
  // As the buyer saw it: the distance belongs to the search, not to the point.
  const { distanceM: _distance, ...saved } = point;
  return saved;
}

/** Each seller group's point (by the group's key), looked up before the order's transaction. */
export async function resolveGroupDeliveries(
  carriers: CarrierProvider | undefined,
  choices: Readonly<Record<string, DeliveryChoice>> | undefined,
): Promise<GroupDeliveries> {
  const points = new Map<string, DropOffPoint | null>();
  for (const [key, choice] of Object.entries(choices ?? {})) {
    points.set(key, await resolveDropOffPoint(carriers, choice));
  }
  return { choices: choices ?? {}, points };
}

export interface GroupDeliveries {
  choices: Readonly<Record<string, DeliveryChoice>>;
  points: ReadonlyMap<string, DropOffPoint | null>;
  /** The delivery address's postcode, when known (its bank holidays). */
  postcode?: string | null | undefined;
}

/** The date it is expected (London, YYYY-MM-DD): the seller's dispatch working days, then the carrier's. */
export function expectedDeliveryOn(method: DeliveryMethod, now: Date, region: BankHolidayRegion): string {
  const arrives = addWorkingDays(
    now,
    COMMERCIAL_DEFAULTS.dispatchWorkingDays + DELIVERY_TRANSIT_WORKING_DAYS[method],
    region,
  );
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(arrives);
}

/** The region whose bank holidays the delivery date skips: the point's, else the address's. */
export function deliveryRegion(
  point: DropOffPoint | null,
  postcode: string | null | undefined,
): BankHolidayRegion {
  return bankHolidayRegionOf(point?.postcode ?? postcode ?? null);
}

/**
 * A priced group's delivery as the buyer sees it: the method its postage is for, the parcel, the
 * point, and both methods with their postage, total and date. Refuses a point that cannot take
 * the parcel.
 */
export function deliveryQuote(
  priced: PricedGroup,
  point: DropOffPoint | null,
  region: BankHolidayRegion,
  now = new Date(),
): DeliveryQuote {
  const { parcel, method } = priced.price;
  if (point && !takesBand(point, parcel.band)) throw new AppError('BAD_INPUT', DROP_OFF_POINT_TOO_SMALL);
  return {
    method,
    band: parcel.band,
    bandLabel: POSTAGE_BAND_LABELS[parcel.band],
    weightG: parcel.weightG,
    thicknessMm: parcel.thicknessMm,
    expectedDeliveryOn: expectedDeliveryOn(method, now, region),
    dropOffPoint: point,
    options: priced.options.map((option) => ({
      ...option,
      label: DELIVERY_METHOD_LABELS[option.method],
      expectedDeliveryOn: expectedDeliveryOn(option.method, now, region),
    })),
  };
}

/** The order's delivery columns (migration 20261221100000_parcels.sql), written with the order. */
export function deliveryColumns(
  delivery: DeliveryQuote,
): Pick<
  Insertable<Orders>,
  | 'delivery_method'
  | 'drop_off_point'
  | 'postage_band'
  | 'parcel_weight_g'
  | 'parcel_thickness_mm'
  | 'expected_delivery_on'
> {
  return {
    delivery_method: delivery.method,
    drop_off_point: delivery.dropOffPoint ? JSON.stringify(delivery.dropOffPoint) : null,
    postage_band: delivery.band,
    parcel_weight_g: delivery.weightG,
    parcel_thickness_mm: delivery.thicknessMm,
    expected_delivery_on: delivery.expectedDeliveryOn,
  };
}
