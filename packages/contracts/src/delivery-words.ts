/**
 * The words for a buyer's delivery choice (issue 37): checkout's options, the order pages and the
 * confirmation email all say it with these, from the order's columns or the quote.
 */
import { z } from 'zod';
import {
  CARRIER_NETWORK_LABELS,
  DELIVERY_METHOD_LABELS,
  DELIVERY_METHODS,
  type DeliveryMethod,
  DROP_OFF_POINT_KIND_LABELS,
  POSTAGE_BAND_LABELS,
  POSTAGE_BANDS,
  type PostageBand,
} from './parcel-words.ts';
import { type DropOffPoint, dropOffPointSchema } from './parcels.ts';

/** An order's delivery choice, from its columns (null on an order from before issue 37). */
export const orderDeliverySchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  band: z.enum(POSTAGE_BANDS).nullable(),
  dropOffPoint: dropOffPointSchema.nullable(),
  /** YYYY-MM-DD. */
  expectedDeliveryOn: z.string().nullable(),
});
export type OrderDelivery = z.infer<typeof orderDeliverySchema>;

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

const ON_DATE = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});

/** "Tuesday 8 December" for a YYYY-MM-DD date. */
export function deliveryDateWords(date: string): string {
  return ON_DATE.format(new Date(`${date}T12:00:00Z`)).replace(',', '');
}

/** "arrives by Tuesday 8 December", beside a method's price. */
export function arrivesByWords(date: string): string {
  return `arrives by ${deliveryDateWords(date)}`;
}

/** A point in one line: "InPost Locker – Green Lane, 12 Green Lane, London N1 1AA". */
export function dropOffPointWords(
  point: Pick<DropOffPoint, 'name' | 'addressLine' | 'town' | 'postcode'>,
): string {
  return `${point.name}, ${point.addressLine}, ${point.town} ${point.postcode}`;
}

/** "Locker · InPost" */
export function dropOffPointKindWords(point: Pick<DropOffPoint, 'kind' | 'network'>): string {
  return `${DROP_OFF_POINT_KIND_LABELS[point.kind]} · ${CARRIER_NETWORK_LABELS[point.network]}`;
}

/** "350 m" or "1.2 km" away. */
export function distanceWords(metres: number): string {
  return metres < 1000 ? `${Math.round(metres / 10) * 10} m` : `${(metres / 1000).toFixed(1)} km`;
}

/** The day of the week (0 = Monday) of an instant in London. */
export function londonWeekday(at: Date): number {
  const name = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'Europe/London' }).format(at);
  return Math.max(0, DAY_NAMES.indexOf(name as (typeof DAY_NAMES)[number]));
}

/** Today's hours in a line: "Open 24 hours", "Open today 08:00–20:00", "Closed today". */
export function openingHoursToday(hours: DropOffPoint['openingHours'], weekday: number): string {
  if (hours.length === 0) return 'Open 24 hours';
  const today = hours.filter((slot) => slot.day === weekday);
  if (today.length === 0) return 'Closed today';
  return `Open today ${today.map((slot) => `${slot.opens}–${slot.closes}`).join(', ')}`;
}

/** The week's hours, one line a day ("Monday: 08:00–20:00", "Sunday: closed"). */
export function openingHoursWeek(hours: DropOffPoint['openingHours']): string[] {
  return DAY_NAMES.map((name, day) => {
    const slots = hours.filter((slot) => slot.day === day);
    return `${name}: ${slots.length ? slots.map((slot) => `${slot.opens}–${slot.closes}`).join(', ') : 'closed'}`;
  });
}

/** An order's delivery choice in words: the method, the point and the date (null parts left out). */
export function orderDeliveryWords(delivery: {
  method: DeliveryMethod;
  band?: PostageBand | null;
  dropOffPoint: DropOffPoint | null;
  expectedDeliveryOn: string | null;
}): { method: string; band: string | null; point: string | null; expected: string | null } {
  return {
    method: DELIVERY_METHOD_LABELS[delivery.method],
    band: delivery.band ? POSTAGE_BAND_LABELS[delivery.band] : null,
    point: delivery.dropOffPoint ? dropOffPointWords(delivery.dropOffPoint) : null,
    expected: delivery.expectedDeliveryOn
      ? `Expected by ${deliveryDateWords(delivery.expectedDeliveryOn)}`
      : null,
  };
}
