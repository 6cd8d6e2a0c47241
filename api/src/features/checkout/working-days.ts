/**
 * UK working days (Monday to Friday, less England and Wales bank holidays), for the seller's
 * dispatch deadline. Dates are reckoned in Europe/London.
 */

/** England and Wales bank holidays (gov.uk), YYYY-MM-DD. */
export const BANK_HOLIDAYS = new Set([
  '2026-01-01',
  '2026-04-03',
  '2026-04-06',
  '2026-05-04',
  '2026-05-25',
  '2026-08-31',
  '2026-12-25',
  '2026-12-28',
  '2027-01-01',
  '2027-03-26',
  '2027-03-29',
  '2027-05-03',
  '2027-05-31',
  '2027-08-30',
  '2027-12-27',
  '2027-12-28',
]);

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

export function isWorkingDay(instant: Date): boolean {
  const { date, weekend } = describe(instant);
  return !weekend && !BANK_HOLIDAYS.has(date);
}

/** The same time of day, `days` working days later (a day at a time, so BST changes are fine). */
export function addWorkingDays(start: Date, days: number): Date {
  let current = new Date(start);
  let added = 0;
  while (added < days) {
    current = new Date(current.getTime() + 24 * 60 * 60 * 1000);
    if (isWorkingDay(current)) added += 1;
  }
  return current;
}
