import { DROP_OFF_POINT_KINDS, normalisePostcode } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import {
  createDropOffDirectory,
  haversineMetres,
  LOCKER_LARGEST_BAND,
  takesBand,
} from './drop-off-directory.ts';
import points from './drop-off-points.json' with { type: 'json' };
import centres from './postcode-districts.json' with { type: 'json' };

const directory = createDropOffDirectory();
const outward = (postcode: string) => normalisePostcode(postcode)?.split(' ')[0] ?? '';

/** Every postcode the demo data and the seeded sale use (api/src/seed). */
const DEMO_POSTCODES = ['BA1 1AA', 'OX16 5LW', 'HX7 6AA', 'EH6 5HX', 'CB3 0AQ'];

describe('the drop-off directory', () => {
  it('lists over 120 valid points of every kind in at least 20 towns across the four nations', () => {
    expect(directory.all.length).toBeGreaterThanOrEqual(120);
    expect(directory.all.length).toBe(points.length);
    const towns = new Set(directory.all.map((point) => point.town));
    expect(towns.size).toBeGreaterThanOrEqual(20);
    for (const town of [
      'London',
      'Manchester',
      'Birmingham',
      'Leeds',
      'Glasgow',
      'Edinburgh',
      'Cardiff',
      'Belfast',
      'Bristol',
    ])
      expect(towns, town).toContain(town);
    const londonDistricts = new Set(
      directory.all.filter((p) => p.town === 'London').map((p) => outward(p.postcode)),
    );
    expect(londonDistricts.size).toBeGreaterThanOrEqual(5);
    for (const kind of DROP_OFF_POINT_KINDS)
      expect(directory.all.some((point) => point.kind === kind)).toBe(true);
    // Lockers are open around the clock; counters have hours.
    for (const point of directory.all) {
      expect(normalisePostcode(point.postcode), point.id).toBe(point.postcode);
      if (point.kind === 'locker') expect(point.openingHours, point.id).toEqual([]);
      else expect(point.openingHours.length, point.id).toBeGreaterThan(0);
      // Every point's district has a centre, and the point lies near it (within 3 km).
      const centre = centres.districts[outward(point.postcode) as keyof typeof centres.districts];
      expect(centre, point.id).toBeDefined();
      expect(haversineMetres(centre, point), point.id).toBeLessThan(3_000);
    }
  });

  it.each(DEMO_POSTCODES)('covers the demo postcode %s with points in its own district', (postcode) => {
    const nearest = directory.nearest(postcode, null, 3);
    expect(nearest).toHaveLength(3);
    expect(nearest.map((point) => outward(point.postcode))).toEqual([
      outward(postcode),
      outward(postcode),
      outward(postcode),
    ]);
  });

  it('answers the nearest points first with whole-metre distances from the district centre', () => {
    const nearest = directory.nearest('eh6 5hx', 'small_parcel', 10);
    expect(nearest).toHaveLength(10);
    const distances = nearest.map((point) => point.distanceM ?? -1);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const distance of distances) expect(Number.isInteger(distance) && distance >= 0).toBe(true);
    expect(nearest[0]?.town).toBe('Edinburgh');
    // Measured from EH6's centre, not from somewhere else.
    expect(nearest[0]?.distanceM).toBe(haversineMetres(centres.districts.EH6, nearest[0]!));
  });

  it('keeps lockers out of a Medium Parcel search (they take up to a Small Parcel)', () => {
    expect(LOCKER_LARGEST_BAND).toBe('small_parcel');
    const small = directory.nearest('SW1A 1AA', 'small_parcel', 40);
    const medium = directory.nearest('SW1A 1AA', 'medium_parcel', 40);
    expect(small.some((point) => point.kind === 'locker')).toBe(true);
    expect(medium.length).toBe(40);
    expect(medium.some((point) => point.kind === 'locker')).toBe(false);
    const locker = small.find((point) => point.kind === 'locker')!;
    expect(takesBand(locker, 'large_letter')).toBe(true);
    expect(takesBand(locker, 'medium_parcel')).toBe(false);
    expect(takesBand(locker, null)).toBe(true);
  });

  it("falls back to the postcode area's centre for a district it does not list", () => {
    // CV (Coventry) has no points nor a district entry, only an area centre.
    expect(centres.districts).not.toHaveProperty('CV1');
    const nearest = directory.nearest('CV1 5FB', null, 3);
    expect(nearest).toHaveLength(3);
    expect(nearest[0]?.distanceM).toBe(haversineMetres(centres.areas.CV, nearest[0]!));
  });

  it('answers nothing for a postcode whose district and area are both unknown, or malformed', () => {
    expect(directory.nearest('ZZ99 9ZZ', null, 5)).toEqual([]);
    expect(directory.nearest('not a postcode', null, 5)).toEqual([]);
    expect(directory.nearest('EH6 5HX', null, 0)).toEqual([]);
  });

  it('finds a point by id', () => {
    const first = directory.all[0]!;
    expect(directory.byId(first.id)).toEqual(first);
    expect(directory.byId('INPOST-NOWHERE99')).toBeNull();
  });

  it('refuses a directory that repeats an id or has a malformed point', () => {
    const one = points[0]!;
    expect(() => createDropOffDirectory([one, one], centres)).toThrow(/repeats an id/);
    expect(() => createDropOffDirectory([{ ...one, kind: 'pub' }], centres)).toThrow();
  });

  it('measures great-circle distances', () => {
    // Edinburgh Waverley to Glasgow Queen Street: about 67 km.
    const km =
      haversineMetres({ latitude: 55.952, longitude: -3.189 }, { latitude: 55.862, longitude: -4.251 }) /
      1000;
    expect(km).toBeGreaterThan(66);
    expect(km).toBeLessThan(68);
  });
});
