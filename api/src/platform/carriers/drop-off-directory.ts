/**
 * A local directory of UK drop-off points (issue 37): InPost lockers, Evri ParcelShops and Post
 * Offices in 39 towns and cities across England, Scotland, Wales and Northern Ireland, with each
 * of the demo data's postcode districts covered. Both carriers answer drop-off searches from it
 * (EasyPost has no point search: decision 0084).
 *
 * The points are FICTIONAL: their names, street addresses and full postcodes are made up for
 * the test carrier and the demo, shaped like the real networks' (a locker outside a shop or a
 * station, open around the clock; a ParcelShop in a newsagent with long hours; a Post Office
 * with counter hours). Their coordinates lie within about a kilometre of their district's
 * centre, so distances are plausible. `postcode-districts.json` holds the approximate centre
 * of each postcode district (outward code, e.g. "EH6") the points and the demo data use, and of
 * each postcode area (its letters, e.g. "EH") as a fallback for a district not listed.
 */
import {
  type DropOffPoint,
  dropOffPointSchema,
  normalisePostcode,
  POSTAGE_BANDS,
  type PostageBand,
} from '@reshelf/contracts';
import { z } from 'zod';
import pointsJson from './drop-off-points.json' with { type: 'json' };
import districtsJson from './postcode-districts.json' with { type: 'json' };

/** Parcel lockers take up to a Small Parcel (45×35×16 cm): a Medium Parcel goes to a counter. */
export const LOCKER_LARGEST_BAND: PostageBand = 'small_parcel';

const coordinatesSchema = z.object({
  latitude: z.number().min(49).max(61),
  longitude: z.number().min(-9).max(2),
});
const centresSchema = z.object({
  districts: z.record(z.string().regex(/^[A-Z]{1,2}[0-9][A-Z0-9]?$/), coordinatesSchema),
  areas: z.record(z.string().regex(/^[A-Z]{1,2}$/), coordinatesSchema),
});

type Centre = z.infer<typeof coordinatesSchema>;

export interface DropOffDirectory {
  /** The points nearest the postcode that take a parcel of this band, nearest first; [] when the postcode is unknown. */
  nearest(postcode: string, band: PostageBand | null, limit: number): DropOffPoint[];
  byId(id: string): DropOffPoint | null;
  /** Every point (the scan page and tests). */
  readonly all: readonly DropOffPoint[];
}

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in whole metres. */
export function haversineMetres(a: Centre, b: Centre): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** Whether a point can take a parcel of this band (lockers have a size limit). */
export function takesBand(point: DropOffPoint, band: PostageBand | null): boolean {
  if (band === null || point.kind !== 'locker') return true;
  return POSTAGE_BANDS.indexOf(band) <= POSTAGE_BANDS.indexOf(LOCKER_LARGEST_BAND);
}

export function createDropOffDirectory(
  points: readonly unknown[] = pointsJson,
  centres: unknown = districtsJson,
): DropOffDirectory {
  const all = z.array(dropOffPointSchema).parse(points);
  const { districts, areas } = centresSchema.parse(centres);
  const byId = new Map(all.map((point) => [point.id, point]));
  if (byId.size !== all.length) throw new Error('drop-off-points.json repeats an id');

  const centreOf = (postcode: string): Centre | null => {
    const normalised = normalisePostcode(postcode);
    if (!normalised) return null;
    const district = normalised.split(' ')[0] ?? '';
    const area = district.replace(/[0-9].*$/, '');
    return districts[district] ?? areas[area] ?? null;
  };

  return {
    all,
    nearest(postcode, band, limit) {
      const centre = centreOf(postcode);
      if (!centre || limit <= 0) return [];
      return all
        .filter((point) => takesBand(point, band))
        .map((point) => ({ ...point, distanceM: haversineMetres(centre, point) }))
        .sort((a, b) => a.distanceM - b.distanceM || a.id.localeCompare(b.id))
        .slice(0, limit);
    },
    byId(id) {
      return byId.get(id) ?? null;
    },
  };
}
