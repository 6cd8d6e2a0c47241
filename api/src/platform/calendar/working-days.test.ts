import { describe, expect, it } from 'vitest';
import published from './bank-holidays.json' with { type: 'json' };
import {
  addWorkingDays,
  BANK_HOLIDAY_REGIONS,
  BANK_HOLIDAYS,
  BANK_HOLIDAYS_KNOWN_UNTIL,
  bankHolidayRegionOf,
  isWorkingDay,
} from './working-days.ts';

const DAY = 86_400_000;
/** Noon in London on a date (BST or not, still that date). */
const noon = (date: string) => new Date(`${date}T12:00:00Z`);
const dateOf = (instant: Date) => instant.toISOString().slice(0, 10);

describe('the bank holidays file', () => {
  it('reaches at least 60 days past today: renew it from https://www.gov.uk/bank-holidays.json', () => {
    const renewBy = new Date(noon(BANK_HOLIDAYS_KNOWN_UNTIL).getTime() - 60 * DAY);
    expect(
      Date.now() < renewBy.getTime(),
      `api/src/platform/calendar/bank-holidays.json ends on ${BANK_HOLIDAYS_KNOWN_UNTIL}: save GOV.UK's bank-holidays.json over it`,
    ).toBe(true);
  });

  it('holds every region GOV.UK publishes, each holiday on a weekday, in order', () => {
    expect(Object.keys(published).sort()).toEqual([...BANK_HOLIDAY_REGIONS].sort());
    for (const region of BANK_HOLIDAY_REGIONS) {
      const dates = published[region].events.map((event) => event.date);
      expect(dates, region).toEqual([...dates].sort());
      expect(new Set(dates).size, region).toBe(dates.length);
      for (const date of dates) expect([0, 6], `${region} ${date}`).not.toContain(noon(date).getUTCDay());
    }
  });

  it('knows each nation’s own holidays, with substitute days', () => {
    const ew = BANK_HOLIDAYS['england-and-wales'];
    const scotland = BANK_HOLIDAYS.scotland;
    const ni = BANK_HOLIDAYS['northern-ireland'];
    // Easter Monday: England, Wales and Northern Ireland, not Scotland.
    expect(ew.has('2028-04-17') && ni.has('2028-04-17') && !scotland.has('2028-04-17')).toBe(true);
    // 2 January and St Andrew's Day: Scotland only (2 Jan 2028 is a Sunday: Tuesday 4th).
    expect(scotland.has('2028-01-04') && !ew.has('2028-01-04')).toBe(true);
    expect(scotland.has('2026-11-30') && !ew.has('2026-11-30') && !ni.has('2026-11-30')).toBe(true);
    // Summer: first Monday of August in Scotland, last elsewhere.
    expect(scotland.has('2027-08-02') && ew.has('2027-08-30') && !scotland.has('2027-08-30')).toBe(true);
    // St Patrick's Day and the Battle of the Boyne (12 July 2026 is a Sunday: Monday 13th).
    expect(ni.has('2027-03-17') && ni.has('2026-07-13') && !ew.has('2026-07-13')).toBe(true);
    // Christmas 2027 falls on a Saturday: Monday 27th and Tuesday 28th everywhere.
    for (const region of BANK_HOLIDAY_REGIONS) {
      expect(BANK_HOLIDAYS[region].has('2027-12-27') && BANK_HOLIDAYS[region].has('2027-12-28')).toBe(true);
    }
  });
});

describe('working days', () => {
  it('skip weekends and the region’s bank holidays', () => {
    // Thursday before Easter 2028: Good Friday and Easter Monday off in England.
    expect(dateOf(addWorkingDays(noon('2028-04-13'), 1))).toBe('2028-04-18');
    // In Scotland Easter Monday is a working day.
    expect(dateOf(addWorkingDays(noon('2028-04-13'), 1, 'scotland'))).toBe('2028-04-17');
    // Friday 9 July 2027: Monday 12th is a holiday in Northern Ireland only.
    expect(dateOf(addWorkingDays(noon('2027-07-09'), 1, 'northern-ireland'))).toBe('2027-07-13');
    expect(dateOf(addWorkingDays(noon('2027-07-09'), 1, 'england-and-wales'))).toBe('2027-07-12');
    expect(isWorkingDay(noon('2026-11-30'), 'scotland')).toBe(false);
    expect(isWorkingDay(noon('2026-11-30'))).toBe(true);
  });

  it('count whole days of 24 hours, across the clocks going forward', () => {
    const friday = new Date('2027-03-26T09:30:00Z'); // Good Friday, GMT
    const due = addWorkingDays(friday, 1);
    expect(dateOf(due)).toBe('2027-03-30'); // Easter Monday skipped; BST from the 28th
    expect(due.getTime() - friday.getTime()).toBe(4 * DAY);
  });
});

describe('the region of a postcode', () => {
  it.each([
    ['BT1 1AA', 'northern-ireland'],
    ['G1 1XQ', 'scotland'],
    ['EH1 1YZ', 'scotland'],
    ['ze1 0aa', 'scotland'],
    ['TD1 1AA', 'scotland'],
    ['TD15 1AA', 'england-and-wales'],
    ['GL50 1AA', 'england-and-wales'],
    ['CF10 1AA', 'england-and-wales'],
    ['OX1 2JD', 'england-and-wales'],
    ['', 'england-and-wales'],
    [null, 'england-and-wales'],
  ])('%s → %s', (postcode, region) => {
    expect(bankHolidayRegionOf(postcode)).toBe(region);
  });
});
