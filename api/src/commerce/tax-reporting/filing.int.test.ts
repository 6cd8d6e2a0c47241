/**
 * Filing a year's platform report (decision 0078): a recorded step (who, when, which year) that
 * freezes each reported seller's figures and details as a snapshot; each reported seller is told
 * in the app and by email and reads their own copy from the snapshot. Records are kept 5 years
 * after the reporting year, also after the member closes their account, and purged after.
 */
import {
  daysUntil,
  REPORTING_DATES,
  REPORTING_RETENTION_YEARS,
  REPORTING_SALES_THRESHOLD,
  reportingDeadlines,
} from '@reshelf/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { runJob } from '../../jobs.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, lastEmailTo, TEST_PASSWORD, type TestUser } from '../../testing/auth.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { api, failure } from '../../testing/client.ts';
import { insertOrderRow } from '../../testing/orders.ts';
import { purgeReportingRecords } from './filing.service.ts';
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
  admin = await createUser(db, t.services.identity, 'admin@filing.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@filing.test', { roles: ['moderator'] });
  buyerId = await createPerson(db, 'buyer@filing.test');
  bookId = await createBook(db, { title: 'Filing book' });
});

afterAll(async () => {
  await t?.close();
});

const thisYear = ukYear(new Date());
const lastYear = thisYear - 1;

/** `count` sales of `amount` pence each by the seller, paid in the middle of `year`, with their payouts. */
async function sales(sellerId: string, count: number, amount: number, year: number) {
  for (let i = 0; i < count; i += 1) {
    const listing = await createListing(db, { sellerId, bookId, price: amount, status: 'sold' });
    const order = await insertOrderRow(db, {
      buyer_id: buyerId,
      seller_id: sellerId,
      listing_id: listing.id,
      item_price_minor: amount,
      total_minor: amount,
      status: 'paid',
      paid_at: new Date(Date.UTC(year, 4, 15)),
    });
    await db
      .insertInto('payouts')
      .values({ seller_id: sellerId, order_id: order.id, amount_minor: amount, status: 'held' })
      .execute();
  }
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

const details = {
  kind: 'individual' as const,
  firstName: 'Jo',
  lastName: 'March',
  dateOfBirth: '1990-04-21',
  addressLine1: '1 Orchard House',
  town: 'Bath',
  postcode: 'BA1 1AA',
  nino: 'AB123456C',
};

let jo: TestUser;
let amy: TestUser;

describe('filing a year and the sellers’ copies', () => {
  it('refuses moderators, a year not yet ended, and files an ended year once, recording who and when', async () => {
    jo = await createUser(db, t.services.identity, 'jo@filing.test');
    amy = await createUser(db, t.services.identity, 'amy@filing.test');
    await api(t.app, jo.accessToken).commerce.taxReporting.member.saveDetails.mutate(details);
    await sales(jo.id, REPORTING_SALES_THRESHOLD, 500, lastYear);
    await sales(amy.id, 2, 500, lastYear); // excluded: not reported

    const staff = api(t.app, admin.accessToken).commerce.taxReporting.staff;
    const asModerator = await failure(
      api(t.app, moderator.accessToken).commerce.taxReporting.staff.file.mutate({ year: lastYear }),
    );
    expect(asModerator.status).toBe(403);
    const notEnded = await failure(staff.file.mutate({ year: thisYear }));
    expect(notEnded.message).toContain(`${thisYear} has not ended`);

    const filed = await staff.file.mutate({ year: lastYear });
    expect(filed).toMatchObject({ year: lastYear, sellers: 1, filedBy: 'admin@filing.test' });
    expect(filed.filedAt).not.toBeNull();
    const again = await failure(staff.file.mutate({ year: lastYear }));
    expect(again.message).toContain(`${lastYear} was filed on`);
    const audit = await db
      .selectFrom('audit_log')
      .select(['action', 'target_id'])
      .where('action', '=', 'reporting.file')
      .execute();
    expect(audit).toEqual([{ action: 'reporting.file', target_id: String(lastYear) }]);
  });

  it('shows staff each year’s deadlines from contracts with the days remaining', async () => {
    const filings = await api(t.app, admin.accessToken).commerce.taxReporting.staff.filings.query();
    const last = filings.find((row) => row.year === lastYear);
    const deadlines = reportingDeadlines(lastYear);
    expect(deadlines.reportBy).toBe(
      `${thisYear}-0${REPORTING_DATES.reportBy.month}-${REPORTING_DATES.reportBy.day}`,
    );
    expect(last).toMatchObject({ ...deadlines, sellers: 1 });
    const today = new Date().toISOString().slice(0, 10);
    expect(last?.daysToReport).toBe(daysUntil(today, deadlines.reportBy));
    const current = filings.find((row) => row.year === thisYear);
    expect(current).toMatchObject({ ...reportingDeadlines(thisYear), filedAt: null, sellers: null });
  });

  it('tells each reported seller in the app and by email, and nobody else', async () => {
    const notice = await db
      .selectFrom('notifications')
      .select(['kind', 'link'])
      .where('user_id', '=', jo.id)
      .where('kind', '=', 'reporting_copy')
      .execute();
    expect(notice).toEqual([{ kind: 'reporting_copy', link: `/account/payouts/reporting/${lastYear}` }]);
    const mail = await lastEmailTo(db, jo.email);
    expect(mail?.template).toBe('reporting.copy');
    expect(mail?.text_body ?? '').toContain(`/account/payouts/reporting/${lastYear}\n`);
    const amyNotices = await db
      .selectFrom('notifications')
      .select('kind')
      .where('user_id', '=', amy.id)
      .where('kind', '=', 'reporting_copy')
      .execute();
    expect(amyNotices).toEqual([]);
  });

  it('gives the seller the fields HMRC got, NI number masked, read from the snapshot however things change after', async () => {
    const me = api(t.app, jo.accessToken).commerce.taxReporting.member;
    const before = await me.copy.query({ year: lastYear });
    expect(before).toMatchObject({
      year: lastYear,
      sellerType: 'individual',
      name: 'Jo March',
      dateOfBirth: '1990-04-21',
      address: '1 Orchard House, Bath, BA1 1AA',
      taxReference: 'NI number •••56C',
      totalSales: REPORTING_SALES_THRESHOLD,
      totalConsiderationMinor: REPORTING_SALES_THRESHOLD * 500,
      totalFeesMinor: 0,
      keptUntilYear: lastYear + REPORTING_RETENTION_YEARS,
    });
    expect(before.quarters.map((q) => q.sales)).toEqual([0, REPORTING_SALES_THRESHOLD, 0, 0]);
    expect(JSON.stringify(before)).not.toContain('AB123456C');

    // After filing: a late sale in that year and new details change nothing in the copy.
    await sales(jo.id, 1, 900, lastYear);
    await me.saveDetails.mutate({ ...details, lastName: 'Bhaer' });
    expect(await me.copy.query({ year: lastYear })).toEqual(before);
    expect((await me.copies.query()).map((row) => row.year)).toEqual([lastYear]);

    const notReported = await failure(
      api(t.app, amy.accessToken).commerce.taxReporting.member.copy.query({ year: lastYear }),
    );
    expect(notReported.status).toBe(404);
    expect(await api(t.app, amy.accessToken).commerce.taxReporting.member.copies.query()).toEqual([]);
  });
});

describe('records kept 5 years after the reporting year', () => {
  it('keeps the snapshot and the details after the member closes their account', async () => {
    // Jo finishes everything (orders completed, nothing owed) and closes the account.
    await db.updateTable('orders').set({ status: 'completed' }).where('seller_id', '=', jo.id).execute();
    await db
      .updateTable('payouts')
      .set({ status: 'released', reversed_minor: (eb) => eb.ref('amount_minor') })
      .where('seller_id', '=', jo.id)
      .execute();
    await api(t.app, jo.accessToken).account.member.close.mutate({
      password: TEST_PASSWORD,
      confirm: 'CLOSE',
    });
    const kept = await db
      .selectFrom('reporting_snapshots')
      .select('seller_id')
      .where('seller_id', '=', jo.id)
      .execute();
    expect(kept).toHaveLength(1);
    const detailsKept = await db
      .selectFrom('reporting_details')
      .select('user_id')
      .where('user_id', '=', jo.id)
      .execute();
    expect(detailsKept).toHaveLength(1);
  });

  it('the job keeps them through the fifth year after and purges them from the 1 January after', async () => {
    const keptUntil = lastYear + REPORTING_RETENTION_YEARS;
    const lastDayKept = new Date(Date.UTC(keptUntil, 11, 31, 12));
    expect(await purgeReportingRecords(jobContext(), lastDayKept)).toBe(0);
    expect(await db.selectFrom('reporting_filings').select('year').execute()).toEqual([{ year: lastYear }]);

    // The job runs on its name (today nothing is old enough).
    expect(await runJob(jobContext(), 'reporting.purge')).toBe(0);

    const firstDayAfter = new Date(Date.UTC(keptUntil + 1, 0, 1, 12));
    expect(await purgeReportingRecords(jobContext(), firstDayAfter)).toBe(1); // the filing with its snapshot
    expect(await db.selectFrom('reporting_filings').select('year').execute()).toEqual([]);
    expect(await db.selectFrom('reporting_snapshots').select('seller_id').execute()).toEqual([]);

    // Jo's details could have built a report of any year up to the one the account closed in:
    // they are kept 5 years after that year, then purged.
    const detailsOf = () =>
      db.selectFrom('reporting_details').select('user_id').where('user_id', '=', jo.id).execute();
    const closedIn = thisYear;
    expect(
      await purgeReportingRecords(
        jobContext(),
        new Date(Date.UTC(closedIn + REPORTING_RETENTION_YEARS, 11, 31, 12)),
      ),
    ).toBe(0);
    expect(await detailsOf()).toHaveLength(1);
    expect(
      await purgeReportingRecords(
        jobContext(),
        new Date(Date.UTC(closedIn + REPORTING_RETENTION_YEARS + 1, 0, 1, 12)),
      ),
    ).toBe(1);
    expect(await detailsOf()).toEqual([]);
  });

  it('keeps an open account’s details (they still sell) while purging the old years', async () => {
    const ann = await createUser(db, t.services.identity, 'ann@filing.test');
    await api(t.app, ann.accessToken).commerce.taxReporting.member.saveDetails.mutate(details);
    const farFuture = new Date(Date.UTC(thisYear + 20, 0, 1, 12));
    await purgeReportingRecords(jobContext(), farFuture);
    const kept = await db
      .selectFrom('reporting_details')
      .select('user_id')
      .where('user_id', '=', ann.id)
      .execute();
    expect(kept).toHaveLength(1);
  });
});
