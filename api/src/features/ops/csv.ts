/**
 * CSV for spreadsheets (RFC 4180): fields with a comma, quote or line break are quoted, and
 * text that a spreadsheet would run as a formula (=, +, -, @, tab, carriage return at the
 * start) is prefixed with an apostrophe. Numbers are written as they are.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<Row extends Record<string, CsvValue>>(
  columns: readonly (keyof Row & string)[],
  rows: Row[],
): string {
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvField(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
