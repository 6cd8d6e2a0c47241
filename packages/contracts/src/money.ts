/** Money is integer pence everywhere; this is the one place it becomes pounds. */

const gbp = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatPence(minor: number): string {
  if (!Number.isInteger(minor)) {
    throw new TypeError(`formatPence expects whole pence, got ${minor}`);
  }
  return gbp.format(minor / 100);
}

/** Parses a pounds amount typed by a person ("12", "12.5", "£1,234.50") into pence. */
export function parsePounds(input: string): number | null {
  const cleaned = input.trim().replace(/^£/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Percentage of an amount in pence, rounded half up to the penny. */
export function percentOf(minor: number, percent: number): number {
  return Math.floor((minor * percent) / 100 + 0.5);
}
