/** What the CSV tests feed every CSV the site writes, and how they judge what came out. */
import { parse } from 'csv-parse/sync';

/**
 * Cells a spreadsheet would run, as people can type them (the probe and OWASP's list):
 * a leading `-` or `+` followed by more formula, the full-width forms of `=`, `+`, `-` and `@`.
 */
export const HOSTILE_CSV_CELLS = [
  `-1+1+cmd|' /C calc'!A0`,
  `-2+3+HYPERLINK("http://evil.example","x")`,
  '＝1+1',
  '＝HYPERLINK("http://evil.example","x")',
  '=HYPERLINK("http://evil.example","x")',
  '+1+1',
  '@SUM(1)',
  '－1+1',
  '＋1+1',
  '＠SUM(1)',
] as const;

/**
 * What a spreadsheet may run at the start of a cell: written here independently of the writer's
 * own list (api/src/http/csv.ts), so that the test does not just repeat what it checks.
 */
const RUNS_AS_FORMULA = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B]/;
/** A plain number: what a money or count cell is, and what no formula can be. */
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
/**
 * Goodreads' ISBN cell, `="0141439513"`: a formula, but one that is only a quoted literal of
 * digits (and X), so it runs to that text and nothing else (decision 0090).
 */
const ISBN_LITERAL = /^="[0-9X]*"$/;

/** The cells of a CSV (header first), read as a spreadsheet's import would. */
export function csvCells(csv: string): string[][] {
  return parse(csv, { bom: true, relax_column_count: false });
}

/** Every cell that a spreadsheet would run: none may be left in a file the site writes. */
export function runnableCells(csv: string): string[] {
  return csvCells(csv)
    .flat()
    .filter((cell) => RUNS_AS_FORMULA.test(cell) && !PLAIN_NUMBER.test(cell) && !ISBN_LITERAL.test(cell));
}

/** The hostile cells that reached the file (written as text, behind a quote mark). */
export function hostileCellsIn(csv: string, hostile: readonly string[] = HOSTILE_CSV_CELLS): string[] {
  const cells = csvCells(csv).flat();
  return hostile.filter((value) => cells.some((cell) => cell.startsWith(`'${value}`)));
}
