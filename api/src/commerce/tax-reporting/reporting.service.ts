/**
 * UK digital platform reporting (decision 0047). Each seller's sales and consideration per
 * calendar year (UK time), the details the rules require once they pass the threshold, the hold
 * on their further payouts until given (a `payout_holds` row of kind 'reporting', opened by the
 * database when a sale makes them reportable), and the annual report staff send to HMRC.
 *
 * A sale counts in the year it was paid; its consideration is the seller's payout less what
 * refunds took back; its fees are what Reshelf kept from the seller's price (the item and
 * postage less the payout: nothing today, as Reshelf's fee is the buyer's buyer protection).
 */
import {
  isReportable,
  REPORTING_CONSIDERATION_THRESHOLD_MINOR,
  REPORTING_CSV_COLUMNS,
  REPORTING_REQUIRED_FIELDS,
  REPORTING_SALES_THRESHOLD,
  type ReportingDetails,
  type ReportingMissingRow,
  type ReportingState,
  type ReportingStatus,
  shouldAskForDetails,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { type CsvRow, csvText, pounds } from '../../http/csv.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/registry.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { type PayoutDeps, payOut } from '../money/payouts.ts';
import { type QuarterTotals, reportableByQuarter, yearOfQuarters } from '../money/sales.ts';

export interface ReportingDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

/** The calendar year of a moment in UK time. */
export function ukYear(at: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { year: 'numeric', timeZone: 'Europe/London' }).format(at));
}

/** A seller's sales and consideration in a calendar year. */
export async function yearTotals(db: Database, sellerId: string, year: number): Promise<QuarterTotals> {
  return yearOfQuarters((await reportableByQuarter(db, year, sellerId)).get(sellerId));
}

async function ownCharity(db: Database, userId: string) {
  return db
    .selectFrom('charities')
    .select(['name', 'registered_number', 'address_line1', 'address_line2', 'town', 'postcode'])
    .where('owner_id', '=', userId)
    .where('status', '=', 'approved')
    .orderBy('created_at')
    .executeTakeFirst();
}

function masked(value: string | null): string | null {
  return value ? `•••${value.slice(-3)}` : null;
}

/** Where the seller stands this year, and what they gave. */
export async function reportingStatus(
  db: Database,
  userId: string,
  now = new Date(),
): Promise<ReportingStatus> {
  const year = ukYear(now);
  const [totals, details, charity, hold] = await Promise.all([
    yearTotals(db, userId, year),
    db.selectFrom('reporting_details').selectAll().where('user_id', '=', userId).executeTakeFirst(),
    ownCharity(db, userId),
    openReportingHold(db, userId),
  ]);
  let state: ReportingState = 'not_needed';
  if (details) state = 'provided';
  else if (hold || isReportable(totals.sales, totals.considerationMinor)) state = 'required';
  else if (shouldAskForDetails(totals.sales, totals.considerationMinor)) state = 'asked';
  return {
    year,
    state,
    sales: totals.sales,
    considerationMinor: totals.considerationMinor,
    salesThreshold: REPORTING_SALES_THRESHOLD,
    considerationThresholdMinor: REPORTING_CONSIDERATION_THRESHOLD_MINOR,
    isCharity: Boolean(charity),
    details: details
      ? {
          kind: details.kind as 'individual' | 'charity' | 'company',
          name:
            details.kind === 'charity'
              ? `${details.legal_name} (${details.registered_number})`
              : details.kind === 'company'
                ? `${details.legal_name} (company ${details.registered_number})`
                : `${details.first_name} ${details.last_name}`,
          dateOfBirth: details.date_of_birth ? isoDate(details.date_of_birth) : null,
          address: [details.address_line1, details.address_line2, details.town, details.postcode]
            .filter(Boolean)
            .join(', '),
          taxReference: details.nino
            ? `NI number ${masked(details.nino)}`
            : details.utr
              ? `UTR ${masked(details.utr)}`
              : null,
          providedAt: new Date(details.provided_at).toISOString(),
        }
      : null,
    charity: charity
      ? {
          legalName: charity.name,
          registeredNumber: charity.registered_number,
          addressLine1: charity.address_line1,
          addressLine2: charity.address_line2,
          town: charity.town,
          postcode: charity.postcode,
        }
      : null,
  };
}

function isoDate(value: Date | string): string {
  if (typeof value === 'string') return value.slice(0, 10);
  // A `date` column read as a local-midnight Date: its local parts are the date.
  const y = value.getFullYear();
  const m = String(value.getMonth() + 1).padStart(2, '0');
  const d = String(value.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

async function openReportingHold(db: Database, sellerId: string) {
  return db
    .selectFrom('payout_holds')
    .select(['id', 'created_at'])
    .where('seller_id', '=', sellerId)
    .where('kind', '=', 'reporting')
    .where('released_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Saves the seller's details (replacing any given before) and releases a reporting hold on
 * their payouts: released earnings then go out with the next payout run.
 */
export async function saveReportingDetails(
  deps: PayoutDeps,
  userId: string,
  input: ReportingDetails,
): Promise<ReportingStatus> {
  const { db } = deps;
  if (input.kind === 'charity' && !(await ownCharity(db, userId))) {
    throw new AppError(
      'BAD_INPUT',
      'Only the owner of an approved charity can give a charity’s details. Give your own details instead.',
    );
  }
  const row =
    input.kind === 'individual'
      ? {
          kind: 'individual',
          first_name: input.firstName,
          last_name: input.lastName,
          legal_name: null,
          date_of_birth: input.dateOfBirth,
          nino: input.nino,
          utr: input.utr,
          registered_number: null,
        }
      : {
          // An entity: a charity (its registered number) or a company (its company number).
          kind: input.kind,
          first_name: null,
          last_name: null,
          legal_name: input.legalName,
          date_of_birth: null,
          nino: null,
          utr: input.utr,
          registered_number: input.kind === 'charity' ? input.registeredNumber : input.companyNumber,
        };
  const address = {
    address_line1: input.addressLine1,
    address_line2: input.addressLine2,
    town: input.town,
    postcode: input.postcode,
    country: 'GB',
  };
  const released = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('reporting_details')
      .values({ user_id: userId, ...row, ...address, provided_at: new Date() })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...row, ...address, provided_at: new Date() }))
      .execute();
    return trx
      .updateTable('payout_holds')
      .set({
        released_at: new Date(),
        released_by: userId,
        release_reason: 'The seller gave their HMRC platform reporting details',
      })
      .where('seller_id', '=', userId)
      .where('kind', '=', 'reporting')
      .where('released_at', 'is', null)
      .returning('id')
      .execute();
  });
  // Earnings that waited for the details go out now (payOut waits itself if another hold remains);
  // if they wait again, for another reason, the seller is told again.
  if (released.length > 0) {
    await db
      .deleteFrom('payout_wait_notices')
      .where('seller_id', '=', userId)
      .where('reason', '=', 'held')
      .execute();
    await payOut(deps, { sellerId: userId });
  }
  return reportingStatus(db, userId);
}

/**
 * The job: asks each seller who is close to (or past) the threshold this year, without details,
 * once a year (in-app and by email); tells a seller once when their payouts are held for them.
 * Answers how many were told.
 */
export async function askForReportingDetails(deps: ReportingDeps, now = new Date()): Promise<number> {
  const { db } = deps;
  const year = ukYear(now);
  const totals = await reportableByQuarter(db, year);
  const holds = new Set(
    (
      await db
        .selectFrom('payout_holds')
        .select('seller_id')
        .where('kind', '=', 'reporting')
        .where('released_at', 'is', null)
        .execute()
    ).map((row) => row.seller_id),
  );
  const candidates = new Map<string, 'asked' | 'held'>();
  for (const [sellerId, quarters] of totals) {
    const year = yearOfQuarters(quarters);
    if (holds.has(sellerId)) candidates.set(sellerId, 'held');
    else if (shouldAskForDetails(year.sales, year.considerationMinor)) candidates.set(sellerId, 'asked');
  }
  for (const sellerId of holds) candidates.set(sellerId, 'held');
  if (candidates.size === 0) return 0;
  const ids = [...candidates.keys()];
  const { hasDetails, notices, people } = await sellersOnFile(db, ids, year);
  const already = new Set(notices.map((row) => `${row.seller_id}:${row.kind}`));
  let count = 0;
  for (const [sellerId, kind] of candidates) {
    if (hasDetails.has(sellerId) || already.has(`${sellerId}:${kind}`)) continue;
    const person = people.get(sellerId);
    await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('reporting_notices')
        .values({ seller_id: sellerId, year, kind })
        .onConflict((oc) => oc.doNothing())
        .returning('seller_id')
        .executeTakeFirst();
      if (!inserted) return;
      await tellSeller(
        trx,
        deps,
        { sellerId, email: person?.email ?? null, name: person?.display_name ?? null },
        kind,
      );
      count += 1;
    });
  }
  return count;
}

export const REPORTING_DETAILS_PATH = '/account/payouts#tax-details';

/**
 * What is on file for these sellers in a year: who has given their details, which notices
 * (asked, held) they were sent and when, and their email and name to write to them. The asking
 * job and staff's "who is missing what" read it here.
 */
async function sellersOnFile(db: Database, ids: readonly string[], year: number) {
  const [given, notices, people] = await Promise.all([
    db.selectFrom('reporting_details').select('user_id').where('user_id', 'in', ids).execute(),
    db
      .selectFrom('reporting_notices')
      .select(['seller_id', 'kind', 'notified_at'])
      .where('seller_id', 'in', ids)
      .where('year', '=', year)
      .execute(),
    db
      .selectFrom('auth.users as u')
      .leftJoin('profiles as pr', 'pr.id', 'u.id')
      .select(['u.id', 'u.email', 'pr.display_name'])
      .where('u.id', 'in', ids)
      .execute(),
  ]);
  return {
    hasDetails: new Set(given.map((row) => row.user_id)),
    notices,
    people: new Map(people.map((row) => [row.id, { email: row.email, display_name: row.display_name }])),
  };
}

async function tellSeller(
  trx: Database,
  deps: ReportingDeps,
  seller: { sellerId: string; email: string | null; name: string | null },
  kind: 'asked' | 'held',
): Promise<void> {
  const title =
    kind === 'held'
      ? 'Your payouts are on hold: we need your details for HMRC'
      : 'We need your details for HMRC platform reporting';
  const body =
    kind === 'held'
      ? `You have made ${REPORTING_SALES_THRESHOLD} or more sales, or more than €2,000, this year, so the law asks us to report your sales to HMRC. We hold your further payouts until you give your details (name, date of birth, address and National Insurance number or UTR; a charity's registered details).`
      : `You are close to ${REPORTING_SALES_THRESHOLD} sales or €2,000 this year. After that the law asks us to report your sales to HMRC, and we hold your payouts until we have your details (name, date of birth, address and National Insurance number or UTR; a charity's registered details). Give them now and nothing waits.`;
  await notify(trx, {
    userId: seller.sellerId,
    kind: 'payout_details_needed',
    title,
    body,
    link: REPORTING_DETAILS_PATH,
  });
  if (!seller.email) return;
  const url = `${deps.origin}${REPORTING_DETAILS_PATH}`;
  const paragraphs = [
    `Hello ${seller.name ?? 'there'},`,
    body,
    'Reshelf never asks for your bank details: those stay with our payment provider.',
  ];
  await deps.mailer.send(
    {
      to: seller.email,
      subject: title,
      text: `${paragraphs.join('\n\n')}\n\nGive your details: ${url}\n`,
      html: layout(paragraphs, { label: 'Give your details', url }),
      template: kind === 'held' ? 'reporting.held' : 'reporting.asked',
      userId: seller.sellerId,
    },
    { trx },
  );
}

// The annual report ------------------------------------------------------------------------------

export interface ReportRow {
  sellerId: string;
  email: string | null;
  sellerType: 'individual' | 'charity' | 'company' | 'unknown';
  detailsProvided: boolean;
  totals: QuarterTotals;
  quarters: QuarterTotals[];
  /** The CSV's cells: text as text, amounts as pounds() and counts as numbers (api/src/http/csv.ts). */
  cells: CsvRow<(typeof REPORTING_CSV_COLUMNS)[number]>;
}

/**
 * The year's reportable sellers (not excluded), with the fields the rules require, biggest
 * consideration first; those without details first of all (staff chase them before filing).
 */
export async function annualReport(db: Database, year: number): Promise<ReportRow[]> {
  if (!Number.isInteger(year) || year < 2000 || year > 2200) {
    throw new AppError('BAD_INPUT', 'Choose a year between 2000 and 2200.');
  }
  const totals = await reportableByQuarter(db, year);
  const reportable = [...totals].filter(([, quarters]) => {
    const total = yearOfQuarters(quarters);
    return isReportable(total.sales, total.considerationMinor);
  });
  if (reportable.length === 0) return [];
  const ids = reportable.map(([id]) => id);
  const [details, emails, accounts] = await Promise.all([
    db.selectFrom('reporting_details').selectAll().where('user_id', 'in', ids).execute(),
    db.selectFrom('auth.users').select(['id', 'email']).where('id', 'in', ids).execute(),
    db
      .selectFrom('connected_accounts')
      .select(['user_id', 'provider_account_id'])
      .where('user_id', 'in', ids)
      .execute(),
  ]);
  const rows = reportable.map(([sellerId, quarters]): ReportRow => {
    const d = details.find((row) => row.user_id === sellerId);
    const total = yearOfQuarters(quarters);
    const account = accounts.find((row) => row.user_id === sellerId);
    const tin = d?.nino ?? d?.utr ?? '';
    const cells = {
      reporting_year: year,
      seller_id: sellerId,
      seller_type: d ? d.kind : '',
      first_name: d?.first_name ?? '',
      last_name: d?.last_name ?? '',
      legal_name: d?.legal_name ?? '',
      date_of_birth: d?.date_of_birth ? isoDate(d.date_of_birth) : '',
      address_line1: d?.address_line1 ?? '',
      address_line2: d?.address_line2 ?? '',
      town: d?.town ?? '',
      postcode: d?.postcode ?? '',
      country: d?.country ?? '',
      tin,
      tin_type: d?.nino ? 'NINO' : d?.utr ? 'UTR' : '',
      tin_issued_by: tin ? 'GB' : '',
      business_registration_number: d?.registered_number ?? '',
      financial_account_identifier: account?.provider_account_id ?? '',
      q1_consideration_gbp: pounds(quarters[0]?.considerationMinor ?? 0),
      q1_sales: quarters[0]?.sales ?? 0,
      q1_fees_gbp: pounds(quarters[0]?.feesMinor ?? 0),
      q2_consideration_gbp: pounds(quarters[1]?.considerationMinor ?? 0),
      q2_sales: quarters[1]?.sales ?? 0,
      q2_fees_gbp: pounds(quarters[1]?.feesMinor ?? 0),
      q3_consideration_gbp: pounds(quarters[2]?.considerationMinor ?? 0),
      q3_sales: quarters[2]?.sales ?? 0,
      q3_fees_gbp: pounds(quarters[2]?.feesMinor ?? 0),
      q4_consideration_gbp: pounds(quarters[3]?.considerationMinor ?? 0),
      q4_sales: quarters[3]?.sales ?? 0,
      q4_fees_gbp: pounds(quarters[3]?.feesMinor ?? 0),
      total_consideration_gbp: pounds(total.considerationMinor),
      total_sales: total.sales,
      details_provided: d ? 'yes' : 'no',
    } satisfies CsvRow<(typeof REPORTING_CSV_COLUMNS)[number]>;
    return {
      sellerId,
      email: emails.find((row) => row.id === sellerId)?.email ?? null,
      sellerType: d ? (d.kind as 'individual' | 'charity' | 'company') : 'unknown',
      detailsProvided: Boolean(d),
      totals: total,
      quarters: quarters ?? [],
      cells,
    };
  });
  return rows.sort(
    (a, b) =>
      Number(a.detailsProvided) - Number(b.detailsProvided) ||
      b.totals.considerationMinor - a.totals.considerationMinor || // money-ok: an ordering, not a figure
      a.sellerId.localeCompare(b.sellerId),
  );
}

/** The annual report as CSV, in the required fields (REPORTING_CSV_COLUMNS), and its number of sellers. */
export async function annualReportCsv(db: Database, year: number): Promise<{ csv: string; rows: number }> {
  const rows = await annualReport(db, year);
  return {
    csv: csvText(
      REPORTING_CSV_COLUMNS,
      rows.map((row) => row.cells),
    ),
    rows: rows.length,
  };
}

/**
 * Staff's "who is missing what" for a year: every seller past the threshold or close to it
 * (`shouldAskForDetails`) who has not given their details, reportable ones first, then by sales;
 * what the rules require of them, when they were asked and told their payouts are held.
 */
export async function missingDetails(db: Database, year: number): Promise<ReportingMissingRow[]> {
  if (!Number.isInteger(year) || year < 2000 || year > 2200) {
    throw new AppError('BAD_INPUT', 'Choose a year between 2000 and 2200.');
  }
  const totals = await reportableByQuarter(db, year);
  const near = [...totals]
    .map(([sellerId, quarters]) => ({ sellerId, total: yearOfQuarters(quarters) }))
    .filter(
      ({ total }) =>
        shouldAskForDetails(total.sales, total.considerationMinor) ||
        isReportable(total.sales, total.considerationMinor),
    );
  if (near.length === 0) return [];
  const ids = near.map((row) => row.sellerId);
  const [{ hasDetails, notices, people }, holds, entities] = await Promise.all([
    sellersOnFile(db, ids, year),
    db
      .selectFrom('payout_holds')
      .select('seller_id')
      .where('kind', '=', 'reporting')
      .where('released_at', 'is', null)
      .where('seller_id', 'in', ids)
      .execute(),
    sql<{ user_id: string }>`
      select m.user_id from public.charity_members m where m.user_id = any (${ids}::uuid[])
      union
      select d.user_id from public.seller_trade_declarations d
       where d.user_id = any (${ids}::uuid[]) and d.trades and d.is_company`.execute(db),
  ]);
  const held = new Set(holds.map((row) => row.seller_id));
  const entity = new Set(entities.rows.map((row) => row.user_id));
  const noticeAt = (sellerId: string, kind: string) =>
    notices.find((row) => row.seller_id === sellerId && row.kind === kind)?.notified_at.toISOString() ?? null;
  return near
    .filter(({ sellerId }) => !hasDetails.has(sellerId))
    .map(({ sellerId, total }): ReportingMissingRow => {
      const person = people.get(sellerId);
      const kind = entity.has(sellerId) ? 'entity' : 'individual';
      return {
        sellerId,
        email: person?.email ?? null,
        name: person?.display_name ?? null,
        reportable: isReportable(total.sales, total.considerationMinor),
        sales: total.sales,
        considerationMinor: total.considerationMinor,
        kind,
        missing: [...REPORTING_REQUIRED_FIELDS[kind]],
        askedAt: noticeAt(sellerId, 'asked'),
        heldNoticeAt: noticeAt(sellerId, 'held'),
        payoutsHeld: held.has(sellerId),
      };
    })
    .sort(
      (a, b) =>
        Number(b.reportable) - Number(a.reportable) ||
        b.sales - a.sales ||
        a.sellerId.localeCompare(b.sellerId),
    );
}
