/**
 * The seller's monthly statement: their ledger entries in a calendar month (UK time),
 * with each sale's order and book, and the month's totals; as data for the printable page and
 * as CSV for their records.
 */
import {
  STATEMENT_CSV_COLUMNS,
  STATEMENT_ENTRY_KINDS,
  STATEMENT_ENTRY_LABELS,
  STATEMENT_LABEL_ENTRY,
  type Statement,
  type StatementEntryKind,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { csvText, pounds } from '../../http/csv.ts';
import { statementEntries } from '../money/ledger.ts';

const UK = 'Europe/London';

function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y!, m! - 1, 1)),
  );
}

export async function statementFor(db: Database, sellerId: string, month: string): Promise<Statement> {
  const [rows, months] = await Promise.all([
    db
      .selectFrom('ledger_entries as l')
      .leftJoin('orders as o', 'o.id', 'l.order_id')
      .select([
        'l.id',
        'l.kind',
        'l.amount_minor',
        'l.order_id',
        'o.reference',
        'l.memo',
        'l.shipment_id',
        'l.created_at',
        // The order's title (the money definitions' order_titles: "Title and 2 more books").
        sql<string | null>`(select t.title from public.order_titles t where t.order_id = l.order_id)`.as(
          'title',
        ),
      ])
      .where('l.seller_id', '=', sellerId)
      .where('l.kind', 'in', [...STATEMENT_ENTRY_KINDS])
      .where(sql<string>`to_char(l.created_at at time zone ${UK}, 'YYYY-MM')`, '=', month)
      .orderBy('l.created_at')
      .orderBy('l.id')
      .execute(),
    db
      .selectFrom('ledger_entries as l')
      .select(sql<string>`to_char(l.created_at at time zone ${UK}, 'YYYY-MM')`.as('month'))
      .distinct()
      .where('l.seller_id', '=', sellerId)
      .where('l.kind', 'in', [...STATEMENT_ENTRY_KINDS])
      .orderBy('month', 'desc')
      .execute(),
  ]);
  const { entries: signed, totals } = statementEntries(
    rows.map((row) => ({ ...row, kind: row.kind as StatementEntryKind })),
  );
  const entries = signed.map((row) => ({
    id: String(row.id),
    at: new Date(row.created_at).toISOString(),
    kind: row.kind,
    // A label bought with the buyer's postage is a debit of its own kind to the seller (issue 37).
    label:
      row.shipment_id && row.kind === 'seller_debit'
        ? STATEMENT_LABEL_ENTRY
        : STATEMENT_ENTRY_LABELS[row.kind],
    orderId: row.order_id,
    reference: row.reference ?? null,
    title: row.title ?? null,
    amountMinor: row.signedMinor,
    memo: row.memo,
  }));
  const monthList = months.map((row) => row.month);
  return {
    month,
    label: monthLabel(month),
    entries,
    totals,
    months: monthList.includes(month) ? monthList : [month, ...monthList].sort().reverse(),
  };
}

/** The statement as CSV, through the one writer (api/src/http/csv.ts): amounts as numbers, text as text. */
export function statementCsv(statement: Statement): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: UK });
  return csvText(
    STATEMENT_CSV_COLUMNS,
    statement.entries.map((entry) => ({
      date: day.format(new Date(entry.at)),
      type: entry.label,
      order_reference: entry.reference ?? '',
      book: entry.title ?? '',
      amount_gbp: pounds(entry.amountMinor),
      note: entry.memo ?? '',
    })),
  );
}
