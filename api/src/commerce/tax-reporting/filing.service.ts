/**
 * Filing a year's platform report (decision 0078). Staff file an ended year once: who, when and
 * which year are recorded, each reported seller's row (the fields HMRC gets, and the same figures
 * in pence) is frozen as a snapshot — the record kept — and each is told, in the app and by email,
 * that their copy is ready. The copy reads the snapshot, never a recomputation. Records are kept
 * `REPORTING_RETENTION_YEARS` after the reporting year ends, whatever happens to the account;
 * `purgeReportingRecords` (the `reporting.purge` job) deletes them after.
 */
import {
  daysUntil,
  REPORTING_RETENTION_YEARS,
  type ReportingCopy,
  type ReportingFiling,
  reportingDeadlines,
  reportingKeptUntilYear,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { layout } from '../../platform/mail/registry.ts';
import { notify } from '../../platform/notifications/notify.ts';
import type { QuarterTotals } from '../money/sales.ts';
import { annualReport, type ReportingDeps, ukYear } from './reporting.service.ts';

/** Where a seller reads their copy of a year. */
export function reportingCopyPath(year: number): string {
  return `/account/payouts/reporting/${year}`;
}

/** Today's date in UK time, as an ISO date. */
function ukToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
}

function dayText(value: Date): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(value);
}

/** The years staff see: this year and the last (each with its deadlines), and every year filed. */
export async function reportingFilings(db: Database, now = new Date()): Promise<ReportingFiling[]> {
  const current = ukYear(now);
  const filed = await db
    .selectFrom('reporting_filings as f')
    .leftJoin('auth.users as u', 'u.id', 'f.filed_by')
    .select(['f.year', 'f.filed_at', 'f.sellers', 'u.email'])
    .execute();
  const years = new Set([current, current - 1, ...filed.map((row) => row.year)]);
  const today = ukToday(now);
  return [...years]
    .sort((a, b) => b - a)
    .map((year) => {
      const row = filed.find((f) => f.year === year);
      const deadlines = reportingDeadlines(year);
      return {
        year,
        ...deadlines,
        daysToReport: daysUntil(today, deadlines.reportBy),
        filedAt: row ? new Date(row.filed_at).toISOString() : null,
        filedBy: row ? (row.email ?? 'a former member of staff') : null,
        sellers: row ? row.sellers : null,
      };
    });
}

/**
 * Files an ended year: records the filing, freezes each reported seller's row as a snapshot and
 * tells each seller (in-app and email) in the same transaction; nothing half-written.
 */
export async function fileYear(
  deps: ReportingDeps,
  input: { year: number; staffId: string },
  now = new Date(),
): Promise<ReportingFiling> {
  const { db } = deps;
  const { year, staffId } = input;
  if (year >= ukYear(now)) {
    throw new AppError('BAD_INPUT', `${year} has not ended yet: a year is filed from 1 January after it.`);
  }
  const rows = await annualReport(db, year);
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('reporting_filings')
      .values({ year, filed_by: staffId, filed_at: now, sellers: rows.length })
      .onConflict((oc) => oc.column('year').doNothing())
      .returning('year')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await trx
        .selectFrom('reporting_filings')
        .select('filed_at')
        .where('year', '=', year)
        .executeTakeFirstOrThrow();
      throw new AppError(
        'CONFLICT',
        `${year} was filed on ${dayText(new Date(existing.filed_at))}: a year is filed once.`,
      );
    }
    if (rows.length === 0) return;
    await trx
      .insertInto('reporting_snapshots')
      .values(
        rows.map((row) => ({
          year,
          seller_id: row.sellerId,
          // The CSV's cells as text, exactly as exported (amounts in pounds).
          cells: JSON.stringify(
            Object.fromEntries(
              Object.entries(row.cells).map(([key, value]) => [
                key,
                value === null || value === undefined ? '' : String(value),
              ]),
            ),
          ),
          quarters: JSON.stringify(row.quarters),
          totals: JSON.stringify(row.totals),
        })),
      )
      .execute();
    const people = await trx
      .selectFrom('auth.users as u')
      .leftJoin('profiles as pr', 'pr.id', 'u.id')
      .select(['u.id', 'u.email', 'pr.display_name', 'pr.closed_at'])
      .where(
        'u.id',
        'in',
        rows.map((row) => row.sellerId),
      )
      .execute();
    for (const person of people) {
      if (person.closed_at) continue; // a closed account has no inbox; the record is kept all the same
      await tellCopyReady(
        trx,
        deps,
        { sellerId: person.id, email: person.email, name: person.display_name },
        year,
      );
    }
  });
  const filing = (await reportingFilings(db, now)).find((row) => row.year === year);
  if (!filing) throw new AppError('INTERNAL', 'The filing was not recorded.');
  return filing;
}

async function tellCopyReady(
  trx: Database,
  deps: ReportingDeps,
  seller: { sellerId: string; email: string | null; name: string | null },
  year: number,
): Promise<void> {
  const path = reportingCopyPath(year);
  const title = `Your copy of what we reported to HMRC for ${year}`;
  const body = `The law asks us to report your sales on Reshelf to HMRC each year, and to give you a copy of what we reported. Your copy for ${year} is ready: your sales, what you were paid and our fees for each quarter, and the details we reported.`;
  await notify(trx, { userId: seller.sellerId, kind: 'reporting_copy', title, body, link: path });
  if (!seller.email) return;
  const url = `${deps.origin}${path}`;
  const paragraphs = [
    `Hello ${seller.name ?? 'there'},`,
    body,
    'If anything in it is wrong, tell us through Contact us and we will correct it with HMRC.',
  ];
  await deps.mailer.send(
    {
      to: seller.email,
      subject: title,
      text: `${paragraphs.join('\n\n')}\n\nRead your copy: ${url}\n`,
      html: layout(paragraphs, { label: 'Read your copy', url }),
      template: 'reporting.copy',
      userId: seller.sellerId,
    },
    { trx },
  );
}

const snapshotTotals = z.object({
  sales: z.number().int(),
  considerationMinor: z.number().int(),
  feesMinor: z.number().int(),
}) satisfies z.ZodType<QuarterTotals>;

function masked(value: string): string {
  return `•••${value.slice(-3)}`;
}

/** The years a seller was reported for (their copies), newest first. */
export async function sellerCopies(
  db: Database,
  sellerId: string,
): Promise<{ year: number; filedAt: string }[]> {
  const rows = await db
    .selectFrom('reporting_snapshots as s')
    .innerJoin('reporting_filings as f', 'f.year', 's.year')
    .select(['s.year', 'f.filed_at'])
    .where('s.seller_id', '=', sellerId)
    .orderBy('s.year', 'desc')
    .execute();
  return rows.map((row) => ({ year: row.year, filedAt: new Date(row.filed_at).toISOString() }));
}

/** A seller's copy of a filed year, read from the snapshot. */
export async function sellerCopy(db: Database, sellerId: string, year: number): Promise<ReportingCopy> {
  const row = await db
    .selectFrom('reporting_snapshots as s')
    .innerJoin('reporting_filings as f', 'f.year', 's.year')
    .select(['s.cells', 's.quarters', 's.totals', 'f.filed_at'])
    .where('s.seller_id', '=', sellerId)
    .where('s.year', '=', year)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `We did not report any sales of yours to HMRC for ${year}.`);
  // The snapshot's shape is checked, not assumed: it was written at filing, perhaps years ago.
  const cells = z.record(z.string(), z.string()).parse(row.cells);
  const quarters = z.array(snapshotTotals).parse(row.quarters);
  const totals = snapshotTotals.parse(row.totals);
  const text = (key: string) => (cells[key] ? cells[key] : null);
  const name =
    cells.seller_type === 'individual'
      ? `${cells.first_name} ${cells.last_name}`
      : cells.legal_name || 'Not given';
  const tin = text('tin');
  return {
    year,
    filedAt: new Date(row.filed_at).toISOString(),
    sellerType: cells.seller_type || 'not given',
    name,
    dateOfBirth: text('date_of_birth'),
    businessRegistrationNumber: text('business_registration_number'),
    address: [cells.address_line1, cells.address_line2, cells.town, cells.postcode]
      .filter(Boolean)
      .join(', '),
    taxReference: tin ? `${cells.tin_type === 'NINO' ? 'NI number' : 'UTR'} ${masked(tin)}` : null,
    financialAccountIdentifier: text('financial_account_identifier'),
    quarters: quarters.map((q, index) => ({
      quarter: index + 1,
      sales: q.sales,
      considerationMinor: q.considerationMinor,
      feesMinor: q.feesMinor,
    })),
    totalSales: totals.sales,
    totalConsiderationMinor: totals.considerationMinor,
    totalFeesMinor: totals.feesMinor,
    keptUntilYear: reportingKeptUntilYear(year),
  };
}

/**
 * The retention job: deletes filed years (their snapshots with them) and notices older than the
 * retention period, and the details of closed accounts kept since the year they closed (the last
 * year they could be reported for). An open account's details stay: the member still sells.
 * Answers how many rows went (filings, details, notices).
 */
export async function purgeReportingRecords(deps: { db: Database }, now = new Date()): Promise<number> {
  const { db } = deps;
  const current = ukYear(now);
  // A reporting year's records are kept through reportingKeptUntilYear(year), purged after.
  const expired = (year: number) => reportingKeptUntilYear(year) < current;
  const filings = await db.selectFrom('reporting_filings').select('year').execute();
  const oldYears = filings.map((row) => row.year).filter(expired);
  let count = 0;
  if (oldYears.length > 0) {
    count += (await db.deleteFrom('reporting_filings').where('year', 'in', oldYears).execute()).reduce(
      (sum, result) => sum + Number(result.numDeletedRows),
      0,
    );
  }
  const notices = await db
    .deleteFrom('reporting_notices')
    .where('year', '<', current - REPORTING_RETENTION_YEARS)
    .executeTakeFirst();
  count += Number(notices.numDeletedRows);
  const details = await sql<{ user_id: string }>`
    delete from public.reporting_details d
     using public.profiles p
     where p.id = d.user_id
       and p.closed_at is not null
       and extract(year from (p.closed_at at time zone 'Europe/London'))::integer + ${REPORTING_RETENTION_YEARS} < ${current}
       and not exists (select 1 from public.reporting_snapshots s where s.seller_id = d.user_id)
    returning d.user_id`.execute(db);
  count += details.rows.length;
  return count;
}
