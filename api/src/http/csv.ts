/**
 * The one CSV writer (decision 0026): every CSV the BFF or its scripts write for
 * people to open — staff exports, a charity's Gift Aid, bulk-listing corrections, `pnpm ops`
 * — goes through here, on csv-stringify (RFC 4180: CRLF line ends; a field with a comma, a
 * quote or a line break is quoted, its quotes doubled). A test fails if any other file imports
 * csv-stringify.
 *
 * Every CSV means every one: staff exports, Gift Aid, corrections, `pnpm ops`, the seller's monthly
 * statement and the HMRC platform report (which had writers of their own until one let
 * `-1+1+cmd|' /C calc'!A0` through, the other full-width `＝`). `csv-injection.int.test.ts` finds
 * them all and feeds each the same hostile cells.
 *
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
 * `+`, `-` or `@` (and some with a tab or a carriage return, or their full-width forms) as a
 * formula, so text someone typed (a title `=HYPERLINK("http://evil","x")`, a donor reference
 * `@SUM(1)`) could run in a staff member's or a charity's spreadsheet. Every *string* cell that
 * starts with one of those is written with a single quote in front, which spreadsheets show as
 * text. Genuine numbers are left alone, so a refund of -3.50 in a money column stays a number
 * you can add up: the caller says a value is a number by passing a `number` (or `pounds()` for
 * pence shown as pounds), never a string. A string that looks like a number ("-3.50" typed in a
 * cell) is text, and is neutralised like any other. A negative amount is written `-3.50`: a
 * plain number, and only ever digits after the sign, so no formula (decision 0059).
 */
import { pipeline, Readable } from 'node:stream';
import { type Options, stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/** An amount in pence, written in pounds with two decimals (-350 → -3.50): a number, never neutralised. */
export class Pounds {
  constructor(readonly minor: number) {
    if (!Number.isSafeInteger(minor)) throw new TypeError(`CSV: pounds() takes whole pence, got ${minor}`);
  }

  toString(): string {
    const sign = this.minor < 0 ? '-' : '';
    const abs = Math.abs(this.minor);
    return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  }
}

/**
 * An ISBN as Goodreads writes it, `="0141439513"`: a formula that is only ever a quoted literal
 * of digits (and X), so that a spreadsheet keeps the leading zeros. Built here from the digits,
 * never from text someone typed, so no other formula can be written through it (decision 0090).
 */
export class ExcelLiteral {
  constructor(readonly digits: string) {
    if (!/^[0-9X]*$/.test(digits))
      throw new TypeError(`CSV: an Excel literal takes ISBN digits, got ${digits}`);
  }

  toString(): string {
    return `="${this.digits}"`;
  }
}

/** An ISBN cell in Goodreads' `="…"` form (`=""` for none). */
export function excelLiteral(digits: string | null | undefined): ExcelLiteral {
  return new ExcelLiteral(digits ?? '');
}

/** Pence as a pounds cell; nothing (an empty cell) for null or undefined. */
export function pounds(minor: number | null | undefined): Pounds | null {
  return minor === null || minor === undefined ? null : new Pounds(minor);
}

export type CsvCell = string | number | bigint | boolean | Date | Pounds | ExcelLiteral | null | undefined;
export type CsvRow<Column extends string> = { readonly [C in Column]: CsvCell };

/** What a spreadsheet may run as a formula at the start of a cell (OWASP), and the full-width and
 * small forms of = + - @ that some spreadsheets (and input methods) take for them. */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B]/;

/** Text as a cell a spreadsheet shows and never runs: a leading formula character gets a `'`. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The text of a cell read back from a CSV we wrote and someone corrected (a bulk-listing
 * upload): the `'` we put before a formula character comes off again, so "- slight foxing"
 * survives the round trip. Anything else is as it was.
 */
export function readBackCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

function options(columns: readonly string[], bom: boolean): Options {
  return {
    header: true,
    columns: [...columns],
    bom,
    record_delimiter: '\r\n',
    // With an explicit record delimiter csv-stringify would leave a lone \n or \r unquoted.
    quote_record_delimiter: true,
    cast: {
      string: (value) => neutralise(value),
      number: (value) => {
        if (!Number.isFinite(value)) throw new TypeError(`CSV: a number cell must be finite, got ${value}`);
        return String(value);
      },
      bigint: (value) => String(value),
      boolean: (value) => (value ? 'true' : 'false'),
      date: (value) => value.toISOString(),
      object: (value) => {
        if (value instanceof Pounds || value instanceof ExcelLiteral) return value.toString();
        throw new TypeError(
          'CSV: a cell must be text, a number, a date, a boolean, pounds() or excelLiteral()',
        );
      },
    },
  };
}

/** A whole CSV file as text, header first (add a byte-order mark for files saved straight to disk). */
export function csvText<Column extends string>(
  columns: readonly Column[],
  rows: Iterable<CsvRow<Column>>,
  settings: { bom?: boolean } = {},
): string {
  return stringifySync([...rows], options(columns, settings.bom ?? false));
}

/**
 * A CSV file as a stream of text, header first, for exports of any size. Rows are pulled as
 * the reader takes the text; a reader that goes away (the download cancelled) stops the rows'
 * source too, and a failing source fails the stream.
 */
export function csvStream<Column extends string>(
  columns: readonly Column[],
  rows: AsyncIterable<CsvRow<Column>> | Iterable<CsvRow<Column>>,
  settings: { bom?: boolean } = {},
): Readable {
  const output = stringify(options(columns, settings.bom ?? false));
  // Errors reach the reader through `output`, which pipeline destroys with them.
  pipeline(Readable.from(rows), output, () => {});
  return output;
}
