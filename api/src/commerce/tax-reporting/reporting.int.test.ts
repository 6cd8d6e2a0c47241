/**
 * UK digital platform reporting (decision 0047): a seller's sales and consideration per calendar
 * year, the details asked for before the threshold (30 sales or €2,000), payouts held when a
 * sale makes a seller reportable without them and released when given, and the annual report
 * staff export for HMRC.
 */
import {
  REPORTING_ASK_AT_SALES,
  REPORTING_CONSIDERATION_THRESHOLD_MINOR,
  REPORTING_CSV_COLUMNS,
  REPORTING_SALES_THRESHOLD,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, type TestUser } from '../../testing/auth.ts';
import { createBook, createCharity, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure, statusOf } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { ukYear } from './reporting.service.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let buyerId: string;
let bookId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@reporting.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@reporting.test', { roles: ['moderator'] });
  buyerId = await createPerson(db, 'buyer@reporting.test');
  bookId = await createBook(db, { title: 'Reporting book' });
});

afterAll(async () => {
  await t.close();
});

const year = ukYear(new Date());

/** `count` sales of `amount` pence each by the seller, paid at `paidAt`, with their payouts. */
async function sales(
  sellerId: string,
  count: number,
  amount = 500,
  options: { paidAt?: Date; status?: 'held' | 'released' | 'cancelled' } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const listing = await createListing(db, { sellerId, bookId, price: amount, status: 'sold' });
    const order = await insertOrderRow(db, {
      buyer_id: buyerId,
      seller_id: sellerId,
      listing_id: listing.id,
      item_price_minor: amount,
      total_minor: amount,
      status: 'paid',
      paid_at: options.paidAt ?? new Date(),
    });
    await db
      .insertInto('payouts')
      .values({
        seller_id: sellerId,
        order_id: order.id,
        amount_minor: amount,
        status: options.status ?? 'held',
      })
      .execute();
    ids.push(order.id);
  }
  return ids;
}

async function openHolds(sellerId: string) {
  return db
    .selectFrom('payout_holds')
    .select(['kind', 'reason'])
    .where('seller_id', '=', sellerId)
    .where('released_at', 'is', null)
    .execute();
}

function jobContext() {
  return {
    db,
    payments: t.services.payments,
    mailer: t.services.mailer,
    storage: t.services.storage,
    origin: 'http://shop.test',
  };
}

let seq = 0;
async function seller(label: string): Promise<TestUser> {
  seq += 1;
  return createUser(db, t.services.identity, `${label}-${seq}@reporting.test`);
}

const individual = {
  kind: 'individual' as const,
  firstName: 'Jo',
  lastName: 'March',
  dateOfBirth: '1990-04-21',
  addressLine1: '1 Orchard House',
  town: 'Bath',
  postcode: 'ba11aa',
  nino: 'ab 12 34 56 c',
};

describe('platform reporting', () => {
  it('uses the same thresholds in the database as in contracts', async () => {
    const row = await sql<{ sales: number; consideration_minor: number }>`
      select * from public.reporting_thresholds()`.execute(db);
    expect(row.rows[0]).toEqual({
      sales: REPORTING_SALES_THRESHOLD,
      consideration_minor: REPORTING_CONSIDERATION_THRESHOLD_MINOR,
    });
    expect(REPORTING_CONSIDERATION_THRESHOLD_MINOR).toBe(172_000);
  });

  it('counts sales and consideration of the calendar year, less refunds, without cancelled sales', async () => {
    const jo = await seller('count');
    const [first] = await sales(jo.id, 3, 1000);
    await sales(jo.id, 2, 700, { status: 'cancelled' });
    await sales(jo.id, 4, 900, { paidAt: new Date(Date.UTC(year - 1, 5, 1)) });
    await db.updateTable('payouts').set({ reversed_minor: 250 }).where('order_id', '=', first!).execute();
    const status = await api(t.app, jo.accessToken).commerce.taxReporting.member.status.query();
    expect(status).toMatchObject({
      year,
      state: 'not_needed',
      sales: 3,
      considerationMinor: 2750,
      salesThreshold: 30,
      considerationThresholdMinor: 172_000,
      isCharity: false,
      details: null,
    });
  });

  it('asks for the details from 25 sales, once, in-app and by email, and payouts go on', async () => {
    const jo = await seller('ask');
    await sales(jo.id, REPORTING_ASK_AT_SALES - 1);
    const me = api(t.app, jo.accessToken).commerce.taxReporting.member;
    expect((await me.status.query()).state).toBe('not_needed');
    await runJob(jobContext(), 'reporting.ask');
    expect(await lastEmailTo(db, jo.email)).toBeUndefined();

    await sales(jo.id, 1);
    expect((await me.status.query()).state).toBe('asked');
    expect(await openHolds(jo.id)).toEqual([]);
    await runJob(jobContext(), 'reporting.ask');
    const mail = await lastEmailTo(db, jo.email);
    expect(mail?.template).toBe('reporting.asked');
    expect(mail?.text_body ?? '').toContain('/account/payouts#tax-details');
    const notices = await db
      .selectFrom('notifications')
      .select(['kind', 'link'])
      .where('user_id', '=', jo.id)
      .execute();
    expect(notices).toEqual([{ kind: 'payout_details_needed', link: '/account/payouts#tax-details' }]);

    await runJob(jobContext(), 'reporting.ask');
    const again = await db.selectFrom('notifications').select('id').where('user_id', '=', jo.id).execute();
    expect(again).toHaveLength(1);
  });

  it('holds further payouts from the 30th sale without details, and releases them when given', async () => {
    const jo = await seller('hold');
    await sales(jo.id, REPORTING_SALES_THRESHOLD - 1);
    expect(await openHolds(jo.id)).toEqual([]);
    await sales(jo.id, 1);
    const holds = await openHolds(jo.id);
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ kind: 'reporting' });
    expect(holds[0]!.reason).toContain('HMRC');
    const me = api(t.app, jo.accessToken).commerce.taxReporting.member;
    expect((await me.status.query()).state).toBe('required');

    await runJob(jobContext(), 'reporting.ask');
    expect((await lastEmailTo(db, jo.email))?.template).toBe('reporting.held');

    const saved = await me.saveDetails.mutate(individual);
    expect(saved.state).toBe('provided');
    expect(saved.details).toMatchObject({
      kind: 'individual',
      name: 'Jo March',
      dateOfBirth: '1990-04-21',
      address: '1 Orchard House, Bath, BA1 1AA',
      taxReference: 'NI number •••56C',
    });
    expect(await openHolds(jo.id)).toEqual([]);
    const released = await db
      .selectFrom('payout_holds')
      .select(['released_by', 'release_reason'])
      .where('seller_id', '=', jo.id)
      .executeTakeFirstOrThrow();
    expect(released.released_by).toBe(jo.id);

    // With the details given, more sales hold nothing.
    await sales(jo.id, 2);
    expect(await openHolds(jo.id)).toEqual([]);
  });

  it('holds from consideration over €2,000 (at 86p), not at exactly €2,000', async () => {
    const exact = await seller('exact');
    await sales(exact.id, 1, REPORTING_CONSIDERATION_THRESHOLD_MINOR);
    expect(await openHolds(exact.id)).toEqual([]);
    const over = await seller('over');
    await sales(over.id, 1, REPORTING_CONSIDERATION_THRESHOLD_MINOR + 1);
    expect((await openHolds(over.id)).map((h) => h.kind)).toEqual(['reporting']);
  });

  it('refuses details that are wrong, saying what is wrong, and saves nothing', async () => {
    const jo = await seller('invalid');
    const me = api(t.app, jo.accessToken).commerce.taxReporting.member;
    const badNino = await failure(me.saveDetails.mutate({ ...individual, nino: 'AB123' }));
    expect(badNino.message).toContain('National Insurance number like AB 12 34 56 C');
    const neither = await failure(me.saveDetails.mutate({ ...individual, nino: '' }));
    expect(neither.message).toContain('National Insurance number or your Unique Taxpayer Reference');
    const young = await failure(me.saveDetails.mutate({ ...individual, dateOfBirth: `${year - 5}-01-01` }));
    expect(young.message).toContain('at least 16 years ago');
    const notReal = await failure(me.saveDetails.mutate({ ...individual, dateOfBirth: '1990-02-30' }));
    expect(notReal.message).toContain('real date of birth');
    const charity = await failure(
      me.saveDetails.mutate({
        kind: 'charity',
        legalName: 'Not A Charity',
        registeredNumber: '1234567',
        addressLine1: '1 High Street',
        town: 'Bath',
        postcode: 'BA1 1AA',
      }),
    );
    expect(charity.message).toContain('Only the owner of an approved charity');
    const utr = await me.saveDetails.mutate({ ...individual, nino: '', utr: '12345 67890K' });
    expect(utr.details?.taxReference).toBe('UTR •••890');
    const rows = await db.selectFrom('reporting_details').selectAll().where('user_id', '=', jo.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ nino: null, utr: '1234567890', postcode: 'BA1 1AA' });
  });

  it('lets a charity give its registered details, filled from its charity', async () => {
    const owner = await seller('charity');
    await createCharity(db, {
      slug: `reporting-charity-${seq}`,
      name: 'Reporting Hospice Books',
      ownerId: owner.id,
      registeredNumber: '1099999',
    });
    const me = api(t.app, owner.accessToken).commerce.taxReporting.member;
    const before = await me.status.query();
    expect(before.isCharity).toBe(true);
    expect(before.charity).toMatchObject({
      legalName: 'Reporting Hospice Books',
      registeredNumber: '1099999',
    });
    const saved = await me.saveDetails.mutate({
      kind: 'charity',
      legalName: 'Reporting Hospice Books',
      registeredNumber: '1099999',
      addressLine1: '2 Church Lane',
      town: 'Banbury',
      postcode: 'OX16 5QA',
    });
    expect(saved.details).toMatchObject({ kind: 'charity', name: 'Reporting Hospice Books (1099999)' });
  });

  it('lets a business seller that is a company give its legal name, company number, address and UTR', async () => {
    const owner = await seller('company');
    const me = api(t.app, owner.accessToken).commerce.taxReporting.member;
    const company = {
      kind: 'company' as const,
      legalName: 'Kennet Rare Books Ltd',
      companyNumber: '1234567',
      addressLine1: '4 Wharf Street',
      town: 'Newbury',
      postcode: 'RG14 5AP',
    };
    const bad = await failure(me.saveDetails.mutate({ ...company, companyNumber: 'X1' }));
    expect(bad.message).toContain('Enter a Companies House number');
    const saved = await me.saveDetails.mutate({ ...company, utr: '12345 67890' });
    expect(saved.details).toMatchObject({
      kind: 'company',
      name: 'Kennet Rare Books Ltd (company 01234567)',
      dateOfBirth: null,
      taxReference: expect.stringMatching(/^UTR /),
    });
    const row = await db
      .selectFrom('reporting_details')
      .select(['kind', 'legal_name', 'registered_number', 'utr', 'nino'])
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      kind: 'company',
      legal_name: 'Kennet Rare Books Ltd',
      registered_number: '01234567',
      utr: '1234567890',
      nino: null,
    });
  });

  it('shows admins who is missing what: reportable and nearly reportable sellers without details, and when asked', async () => {
    const year = ukYear(new Date());
    const near = await seller('missing-near');
    await sales(near.id, REPORTING_ASK_AT_SALES);
    const past = await seller('missing-past');
    await sales(past.id, REPORTING_SALES_THRESHOLD);
    const given = await seller('missing-given');
    await sales(given.id, REPORTING_SALES_THRESHOLD);
    await api(t.app, given.accessToken).commerce.taxReporting.member.saveDetails.mutate(individual);
    const staff = api(t.app, admin.accessToken).commerce.taxReporting.staff;
    const before = await staff.missing.query({ year });
    const rowOf = (rows: typeof before, id: string) => rows.find((row) => row.sellerId === id);
    expect(rowOf(before, given.id)).toBeUndefined();
    expect(rowOf(before, near.id)).toMatchObject({
      reportable: false,
      sales: REPORTING_ASK_AT_SALES,
      askedAt: null,
      missing: ['name', 'date of birth', 'address', 'National Insurance number or UTR'],
    });
    expect(rowOf(before, past.id)).toMatchObject({ reportable: true, payoutsHeld: true });
    // Reportable sellers first.
    expect(before.findIndex((row) => row.sellerId === past.id)).toBeLessThan(
      before.findIndex((row) => row.sellerId === near.id),
    );
    await runJob(jobContext(), 'reporting.ask');
    const after = await staff.missing.query({ year });
    expect(rowOf(after, near.id)?.askedAt).toEqual(expect.any(String));
    expect(rowOf(after, past.id)?.heldNoticeAt).toEqual(expect.any(String));
    expect(
      await statusOf(api(t.app, moderator.accessToken).commerce.taxReporting.staff.missing.query({ year })),
    ).toBe(403);
  });

  it('exports the annual report for admins: reportable sellers only, missing details first, by quarter', async () => {
    const given = await seller('report-given');
    await sales(given.id, REPORTING_SALES_THRESHOLD, 100, { paidAt: new Date(Date.UTC(2025, 1, 10)) });
    await sales(given.id, 1, 5000, { paidAt: new Date(Date.UTC(2025, 7, 10)) });
    await api(t.app, given.accessToken).commerce.taxReporting.member.saveDetails.mutate(individual);
    const missing = await seller('report-missing');
    await sales(missing.id, 1, REPORTING_CONSIDERATION_THRESHOLD_MINOR + 100, {
      paidAt: new Date(Date.UTC(2025, 10, 1)),
    });
    const small = await seller('report-small');
    await sales(small.id, 3, 1000, { paidAt: new Date(Date.UTC(2025, 3, 1)) });

    expect(await statusOf(api(t.app).commerce.taxReporting.staff.report.query({ year: 2025 }))).toBe(401);
    expect(
      await statusOf(
        api(t.app, moderator.accessToken).commerce.taxReporting.staff.report.query({ year: 2025 }),
      ),
    ).toBe(403);
    expect(
      await statusOf(
        api(t.app, given.accessToken).commerce.taxReporting.staff.exportCsv.query({ year: 2025 }),
      ),
    ).toBe(403);

    const staff = api(t.app, admin.accessToken).commerce.taxReporting.staff;
    const report = await staff.report.query({ year: 2025 });
    expect(report.rows.map((row) => row.sellerId)).toEqual([missing.id, given.id]);
    expect(report.rows[1]).toMatchObject({
      sellerType: 'individual',
      detailsProvided: true,
      totals: { sales: 31, considerationMinor: 8000, feesMinor: 0 },
    });
    expect(report.rows[1]!.quarters.map((q) => q.sales)).toEqual([30, 0, 1, 0]);

    const csv = await staff.exportCsv.query({ year: 2025 });
    expect(csv.filename).toBe('reshelf-hmrc-platform-report-2025.csv');
    const lines = csv.csv.trim().split('\r\n');
    expect(lines[0]).toBe(REPORTING_CSV_COLUMNS.join(','));
    expect(lines).toHaveLength(3);
    const cells = Object.fromEntries(
      REPORTING_CSV_COLUMNS.map((column, i) => [column, lines[2]!.split(',')[i]]),
    );
    expect(cells).toMatchObject({
      reporting_year: '2025',
      seller_id: given.id,
      seller_type: 'individual',
      first_name: 'Jo',
      last_name: 'March',
      date_of_birth: '1990-04-21',
      postcode: 'BA1 1AA',
      country: 'GB',
      tin: 'AB123456C',
      tin_type: 'NINO',
      tin_issued_by: 'GB',
      q1_consideration_gbp: '30.00',
      q1_sales: '30',
      q3_consideration_gbp: '50.00',
      total_consideration_gbp: '80.00',
      total_sales: '31',
      details_provided: 'yes',
    });
    expect(lines[1]).toContain(',no');
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'reporting.export')
      .execute();
    expect(audit).toEqual([{ action: 'reporting.export', target_id: '2025' }]);
    const badYear = await failure(staff.report.query({ year: 1999 }));
    expect(badYear.message).toContain('Choose a year from 2000');
  });
});
