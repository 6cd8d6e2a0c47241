/**
 * The embedded demo seed: run on the first start of an embedded marketplace so a newcomer
 * never meets an empty site. Each part runs once (recorded in seed_runs) and in one
 * transaction, so a failure leaves nothing half-written. Then the demo listings get their
 * generated covers (staff/dashboard/demo-covers.ts), stored through the storage port.
 */
import { CompiledQuery } from 'kysely';
import type { SqlClient } from '../../../supabase/functions/_shared/admin.ts';
import { seedOpenLibraryRecent } from '../../../supabase/functions/_shared/seed.ts';
import type { Database } from '../db/index.ts';
import type { IdentityProvider } from '../platform/identity/port.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import type { PaymentProvider } from '../platform/payments/port.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import { attachDemoCovers, type DemoCoversReport } from '../staff/index.ts';
import { SNAPSHOT_BOOKS } from './books.ts';
import { catalogueDemoSlugs, seedCatalogueDemo } from './catalogue-demo.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { seedDemoBasketOrders } from './demo-basket-orders.ts';
import { canSeedMoneyOut, demoMoneyOutSlugs, seedDemoMoneyOut } from './demo-money-out.ts';
import { seedDemoAppeal, seedDemoReports } from './demo-reports.ts';
import { seedDemoReviews } from './demo-reviews.ts';
import { seedDemoSalesHistory } from './demo-sales-history.ts';
import { seedDemoSeries } from './demo-series.ts';
import { seedDemoSocial } from './demo-social.ts';
import { CATEGORIES, GENRES } from './reference-data.ts';
import { seedSellerActivity } from './seller-activity.ts';
import { seedSitePages } from './site-pages.ts';

export interface SeedReport {
  ran: string[];
  /** Generated covers given to demo listings without an image (every start; usually none). */
  covers: DemoCoversReport & { error?: string };
}

async function once(db: Database, name: string, work: (trx: Database) => Promise<Record<string, unknown>>) {
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('seed_runs')
      .values({ name })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!claimed) return false;
    const details = await work(trx);
    await trx
      .updateTable('seed_runs')
      .set({ details: JSON.stringify(details) })
      .where('name', '=', name)
      .execute();
    return true;
  });
}

export async function seedReferenceData(db: Database): Promise<{ categories: number; genres: number }> {
  const categories = await db
    .insertInto('categories')
    .values(CATEGORIES.map((category, position) => ({ ...category, position })))
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .execute();
  const genres = await db
    .insertInto('genres')
    .values(GENRES.map((genre, position) => ({ ...genre, position })))
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .execute();
  return { categories: categories.length, genres: genres.length };
}

/** The shared server-function code's SQL client, on a Kysely connection or transaction. */
export function kyselyClient(db: Database): SqlClient {
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      const result = await db.executeQuery<Row>(CompiledQuery.raw(text, params));
      return [...result.rows];
    },
  };
}

/** Whether an earlier start began the demo's money out (its first sale's listing is there). */
async function moneyOutStarted(db: Database): Promise<boolean> {
  const row = await db
    .selectFrom('listings')
    .select('id')
    .where('slug', '=', demoMoneyOutSlugs().refundedBeforeRelease)
    .executeTakeFirst();
  return Boolean(row);
}

export async function runDemoSeed(
  db: Database,
  services: { identity: IdentityProvider; storage: StoragePort; payments?: PaymentProvider; mailer?: Mailer },
  /** The site's origin, for the links in the emails the demo's money out sends. */
  options: { origin?: string } = {},
): Promise<SeedReport> {
  const ran: string[] = [];
  if (await once(db, 'reference-data', (trx) => seedReferenceData(trx))) ran.push('reference-data');
  const accounts = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', 'demo-accounts')
    .executeTakeFirst();
  if (!accounts) {
    // Accounts go through the identity provider (its own connection), so they are
    // recorded only once all of them exist; a failure part-way is completed next start.
    const ids = await seedDemoAccounts(db, services.identity);
    await db
      .insertInto('seed_runs')
      .values({ name: 'demo-accounts', details: JSON.stringify({ accounts: Object.keys(ids).length }) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    ran.push('demo-accounts');
  }
  if (await once(db, 'site-pages', (trx) => seedSitePages(trx))) ran.push('site-pages');
  if (await once(db, 'catalogue-demo', (trx) => seedCatalogueDemo(trx))) ran.push('catalogue-demo');
  // The demo buyer has Harry Potter 1, 2 and 4, with 3 on sale: "complete the set" (decision 0089).
  if (await once(db, 'demo-series', (trx) => seedDemoSeries(trx))) ran.push('demo-series');
  if (await once(db, 'demo-reports', (trx) => seedDemoReports(trx))) ran.push('demo-reports');
  // Orders of several books: the basket's pages have something to show.
  if (await once(db, 'demo-basket-orders', (trx) => seedDemoBasketOrders(trx)))
    ran.push('demo-basket-orders');
  // Ninety days of views, saves, offers and sales for the demo seller and charity.
  if (await once(db, 'seller-activity', (trx) => seedSellerActivity(trx))) ran.push('seller-activity');
  // Refunds before and after release, a debt netted from the next payout and a failed payout paid
  // again, through the app's own services and the test provider: the ledger test over
  // the seed and the reconciliation page cover refunds and reversals. Not in one transaction
  // (those services commit their own), so it is recorded once it is done; if an earlier start
  // stopped part-way its sales are there already, and it is recorded as such, not run again.
  if (canSeedMoneyOut(services.payments) && services.mailer) {
    const done = await db
      .selectFrom('seed_runs')
      .select('name')
      .where('name', '=', 'demo-money-out')
      .executeTakeFirst();
    if (!done) {
      const details = (await moneyOutStarted(db))
        ? { incomplete: true }
        : await seedDemoMoneyOut(db, {
            payments: services.payments,
            mailer: services.mailer,
            origin: options.origin ?? 'http://localhost',
          });
      await db
        .insertInto('seed_runs')
        .values({ name: 'demo-money-out', details: JSON.stringify(details) })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      ran.push('demo-money-out');
    }
  }
  // The staff dashboard's "Seed 40 books + orders", once, so its cards show numbers from the start.
  const staffSeed = (trx: Database) =>
    seedOpenLibraryRecent(kyselyClient(trx), { reset: false }, { snapshot: SNAPSHOT_BOOKS }).then(
      (result) => ({ ...result }),
    );
  if (await once(db, 'seed-openlibrary-recent', staffSeed)) ran.push('seed-openlibrary-recent');
  // Two years of past sales of every demo book, for the fair price (decision 0091).
  if (await once(db, 'demo-sales-history', (trx) => seedDemoSalesHistory(trx)))
    ran.push('demo-sales-history');
  // Follows, a saved search and copies' formats for the reader's side.
  if (await once(db, 'demo-social', (trx) => seedDemoSocial(trx))) ran.push('demo-social');
  // Reviews of every completed demo order: ratings on cards and seller pages at once.
  if (await once(db, 'demo-reviews', (trx) => seedDemoReviews(trx))) ran.push('demo-reviews');
  // Last, so nothing above finds its listing removed: one removal with an open appeal.
  if (await once(db, 'demo-appeal', (trx) => seedDemoAppeal(trx))) ran.push('demo-appeal');
  // Every start, not once: demo listings still without an image (a first start, or data from
  // before covers were drawn) get their generated covers; otherwise this finds nothing.
  // A failure here is reported, not fatal: the marketplace starts, and the next start or
  // seed tries again.
  let covers: SeedReport['covers'];
  try {
    covers = await attachDemoCovers({ db, storage: services.storage, slugs: catalogueDemoSlugs() });
  } catch (error) {
    covers = { listings: 0, covers: 0, ms: 0, error: (error as Error).message };
  }
  return { ran, covers };
}
