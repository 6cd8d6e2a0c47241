/**
 * UK working days (Monday to Friday, less bank holidays), for the seller's dispatch deadline
 * and the carrier's delivery window. Dates are reckoned in Europe/London.
 *
 * Bank holidays differ by nation, so they are kept per region in `bank-holidays.json`, in the
 * shape GOV.UK publishes at https://www.gov.uk/bank-holidays.json (renew it by saving that
 * file over this one). `working-days.test.ts` fails from 60 days before the last date in the
 * file, so it is renewed before the sums start treating bank holidays as working days.
 *
 * Which region's holidays apply (decision 0011):
 *   - the dispatch deadline counts the seller's working days: the region of the charity's
 *     postcode for a charity's listing, else of the seller's default saved address (else their
 *     latest one);
 *   - the carrier's delivery window, and the days after it before delivery is presumed, count
 *     the working days where the parcel is delivered: the region of the order's address;
 *   - with no postcode to go by, England and Wales.
 */
import { z } from 'zod';
import published from './bank-holidays.json' with { type: 'json' };

export const BANK_HOLIDAY_REGIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type BankHolidayRegion = (typeof BANK_HOLIDAY_REGIONS)[number];
export const DEFAULT_BANK_HOLIDAY_REGION: BankHolidayRegion = 'england-and-wales';

const divisionSchema = z.object({
  division: z.enum(BANK_HOLIDAY_REGIONS),
  events: z
    .array(
      z.object({ title: z.string().min(1), date: z.iso.date(), notes: z.string(), bunting: z.boolean() }),
    )
    .min(1),
});
// Checked when the module loads: a broken file fails fast rather than counting holidays as working days.
const file = z
  .object({
    'england-and-wales': divisionSchema,
    scotland: divisionSchema,
    'northern-ireland': divisionSchema,
  })
  .parse(published);

/** Each region's bank holidays, YYYY-MM-DD. */
export const BANK_HOLIDAYS: Readonly<Record<BankHolidayRegion, ReadonlySet<string>>> = {
  'england-and-wales': new Set(file['england-and-wales'].events.map((event) => event.date)),
  scotland: new Set(file.scotland.events.map((event) => event.date)),
  'northern-ireland': new Set(file['northern-ireland'].events.map((event) => event.date)),
};

/** The last date the file knows about in every region: past it, only weekends are known. */
export const BANK_HOLIDAYS_KNOWN_UNTIL: string = BANK_HOLIDAY_REGIONS.map(
  (region) => [...BANK_HOLIDAYS[region]].sort().at(-1)!,
).sort()[0]!;

/** Scottish postcode areas; TD15 (Berwick-upon-Tweed) is in England. */
const SCOTTISH_AREAS = new Set([
  'AB',
  'DD',
  'DG',
  'EH',
  'FK',
  'G',
  'HS',
  'IV',
  'KA',
  'KW',
  'KY',
  'ML',
  'PA',
  'PH',
  'TD',
  'ZE',
]);

/**
 * The bank-holiday region of a UK postcode: BT is Northern Ireland, the Scottish areas are
 * Scotland, everything else (and no postcode at all) England and Wales.
 */
export function bankHolidayRegionOf(postcode: string | null | undefined): BankHolidayRegion {
  const compact = (postcode ?? '').replace(/\s+/g, '').toUpperCase();
  const area = /^[A-Z]+/.exec(compact)?.[0];
  if (!area) return DEFAULT_BANK_HOLIDAY_REGION;
  if (area === 'BT') return 'northern-ireland';
  if (area === 'TD' && /^TD15/.test(compact)) return 'england-and-wales';
  return SCOTTISH_AREAS.has(area) ? 'scotland' : DEFAULT_BANK_HOLIDAY_REGION;
}

const londonDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  weekday: 'short',
});

function describe(instant: Date): { date: string; weekend: boolean } {
  const parts = Object.fromEntries(londonDate.formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekend: parts.weekday === 'Sat' || parts.weekday === 'Sun',
  };
}

export function isWorkingDay(
  instant: Date,
  region: BankHolidayRegion = DEFAULT_BANK_HOLIDAY_REGION,
): boolean {
  const { date, weekend } = describe(instant);
  return !weekend && !BANK_HOLIDAYS[region].has(date);
}

/** The same time of day, `days` working days later (a day at a time, so BST changes are fine). */
export function addWorkingDays(
  start: Date,
  days: number,
  region: BankHolidayRegion = DEFAULT_BANK_HOLIDAY_REGION,
): Date {
  let current = new Date(start);
  let added = 0;
  while (added < days) {
    current = new Date(current.getTime() + 24 * 60 * 60 * 1000);
    if (isWorkingDay(current, region)) added += 1;
  }
  return current;
}
