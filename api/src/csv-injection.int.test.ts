/**
 * Formula injection in every CSV the site writes (decisions 0026 and 0059). The same
 * hostile cells (`HOSTILE_CSV_CELLS`: `-1+1+cmd|' /C calc'!A0`, `-2+3+HYPERLINK(…)`, full-width
 * `＝1+1`…) are typed wherever a person's text reaches a CSV: book titles, a charity's donor
 * references and corrections, a ledger note, a seller's reporting details, an email address.
 * Then every CSV is fetched as its reader fetches it, and
 *   - the hostile cells are in it, written as text (proof that the test reached it);
 *   - no cell in it would run in a spreadsheet, other than a plain number (a negative amount
 *     is one, and stays one).
 * Which CSVs there are is found, not listed by hand: every procedure whose answer carries a `csv`
 * (from the router), every kind of staff export, and every file that calls the writer or serves
 * `text/csv`; the test fails if it does not cover each one it finds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORTING_CONSIDERATION_THRESHOLD_MINOR } from '@reshelf/contracts';
import { sql } from 'kysely';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runOps } from '../scripts/ops.ts';
import { EXPORT_KINDS } from './commerce/exports/exports.service.ts';
import { ukYear } from './commerce/tax-reporting/reporting.service.ts';
import type { Database } from './db/index.ts';
import { csvText } from './http/csv.ts';
import { createApiToken } from './platform/identity/api-tokens.ts';
import { appRouter } from './router.ts';
import { createTestApp, type TestApp } from './testing/app.ts';
import { createUser, type TestUser } from './testing/auth.ts';
import { createBook, createCharity, createListing } from './testing/catalogue.ts';
import { api } from './testing/client.ts';
import { csvCells, HOSTILE_CSV_CELLS, hostileCellsIn, runnableCells } from './testing/csv.ts';
import { createOrder } from './testing/selling.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOSTILE: string[] = [...HOSTILE_CSV_CELLS];
/** A seller's address: valid (RFC 5322 allows `-` and `+` anywhere in it), and a formula. */
const HOSTILE_EMAIL = '-2+3+cmd@evil.example';
const KNOWN_ISBN = '9780141439518';
const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
const thisMonth = today.slice(0, 7);
const taxYear = Number(today.slice(0, 4)) - (today.slice(5) < '04-06' ? 1 : 0);

let t: TestApp;
let db: Database;
let url: string;
let admin: TestUser;
let moderator: TestUser;
let seller: TestUser;
let owner: TestUser;
let opsToken: string;
let importId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  admin = await createUser(db, t.services.identity, 'admin@csv.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@csv.test', { roles: ['moderator'] });
  const opsAdmin = await createUser(db, t.services.identity, 'ops@csv.test', { tier: 'ops_admin' });
  opsToken = (
    await createApiToken(db, t.secrets, opsAdmin.id, { name: 'csv', scope: 'read', expiresInDays: 1 })
  ).token;
  seller = await createUser(db, t.services.identity, HOSTILE_EMAIL);
  owner = await createUser(db, t.services.identity, 'owner@csv.test');
  const buyer = await createUser(db, t.services.identity, 'buyer@csv.test');
  const charityId = await createCharity(db, { slug: 'csv-books', name: 'CSV Books', ownerId: owner.id });
  await createBook(db, { title: 'A known book', isbn13: KNOWN_ISBN });
  // Donor references are checked when typed and by the database; the writer must not rely on it.
  await sql`alter table public.listings drop constraint listings_donor_reference_check`.execute(db);

  for (const [index, hostile] of HOSTILE.entries()) {
    const bookId = await createBook(db, { title: hostile });
    // A sale by the seller, big enough to make them reportable to HMRC, with its payout.
    // A want for that edition: the seller's reading-list export carries its title.
    await db.insertInto('wants').values({ user_id: seller.id, kind: 'edition', book_id: bookId }).execute();
    const listing = await createListing(db, { sellerId: seller.id, bookId, status: 'sold', price: 1000 });
    const orderId = await createOrder(db, {
      listingId: listing.id,
      buyerId: buyer.id,
      sellerId: seller.id,
      status: 'paid',
      priceMinor: Math.ceil(REPORTING_CONSIDERATION_THRESHOLD_MINOR / HOSTILE.length) + 100,
    });
    const { amount } = await db
      .selectFrom('orders')
      .select('item_price_minor as amount')
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('payouts')
      .values({ seller_id: seller.id, order_id: orderId, amount_minor: amount })
      .execute();
    // A note on the seller's statement, and a refund taken back (a negative amount).
    await db
      .insertInto('ledger_entries')
      .values([
        {
          kind: 'seller_credit',
          amount_minor: amount,
          order_id: orderId,
          seller_id: seller.id,
          entry_key: `csv-credit-${index}`,
          memo: hostile,
        },
        {
          kind: 'seller_debit',
          amount_minor: 350,
          order_id: orderId,
          seller_id: seller.id,
          entry_key: `csv-debit-${index}`,
          memo: null,
        },
      ])
      .execute();
    // The same book sold by the charity, with the donor reference someone typed.
    const donated = await createListing(db, {
      sellerId: owner.id,
      bookId,
      charityId,
      status: 'sold',
      price: 500,
    });
    await db.updateTable('listings').set({ donor_reference: hostile }).where('id', '=', donated.id).execute();
    await createOrder(db, {
      listingId: donated.id,
      buyerId: buyer.id,
      sellerId: owner.id,
      status: 'completed',
    });
  }
  // The seller's details for HMRC, as typed (the form's own checks are not the writer's wall).
  await db
    .insertInto('reporting_details')
    .values({
      user_id: seller.id,
      kind: 'individual',
      first_name: HOSTILE[0]!,
      last_name: HOSTILE[1]!,
      date_of_birth: '1990-04-21',
      address_line1: HOSTILE[2]!,
      address_line2: HOSTILE[3]!,
      town: HOSTILE[4]!,
      postcode: 'BA1 1AA',
      nino: 'AB123456C',
    })
    .execute();

  // A bulk listing whose rows all need correcting (no price), every cell someone typed hostile.
  const upload = csvText(
    ['isbn', 'condition', 'price', 'notes', 'donor_reference', 'title'],
    HOSTILE.map((hostile) => ({
      isbn: KNOWN_ISBN,
      condition: 'Good',
      price: '',
      notes: hostile,
      donor_reference: hostile,
      title: hostile,
    })),
  );
  const uploaded = await request(t.app.server)
    .post('/api/uploads/charity-listings')
    .set('authorization', `Bearer ${owner.accessToken}`)
    .attach('file', Buffer.from(upload, 'utf8'), { filename: 'hostile.csv', contentType: 'text/csv' });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  importId = uploaded.body.id;
  await vi.waitFor(
    async () => {
      const status = await api(t.app, owner.accessToken).charities.importStatus.query({ importId });
      expect(status.status).toBe('done');
    },
    { timeout: 60_000, interval: 100 },
  );
});

afterAll(async () => {
  await t?.close();
});

interface CsvFile {
  /** How a reader gets it. */
  name: string;
  /** The file that writes it (checked against the files found calling the writer). */
  source: string;
  /** The tRPC procedure whose answer carries it, if one does. */
  procedure?: string;
  /** The staff export kind, if it is one. */
  exportKind?: (typeof EXPORT_KINDS)[number];
  /** The hostile cells it must carry (as text); none for a file with no text anyone typed. */
  carries: readonly string[];
  fetch(): Promise<string>;
}

const exportFile = (kind: (typeof EXPORT_KINDS)[number], carries: readonly string[]): CsvFile => ({
  name: `GET /api/admin/exports/${kind}.csv`,
  source: 'api/src/commerce/exports/exports.service.ts',
  exportKind: kind,
  carries,
  async fetch() {
    const response = await request(t.app.server)
      .get(`/api/admin/exports/${kind}.csv?from=${today}&to=${today}`)
      .set('authorization', `Bearer ${moderator.accessToken}`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    return response.text;
  },
});

const FILES: CsvFile[] = [
  exportFile('orders', [...HOSTILE, HOSTILE_EMAIL]),
  exportFile('order_items', HOSTILE),
  exportFile('payouts', [HOSTILE_EMAIL]),
  exportFile('listings', HOSTILE),
  // Days, counts and amounts only: nothing anyone typed reaches it.
  exportFile('revenue', []),
  {
    name: 'the seller’s monthly statement',
    source: 'api/src/commerce/payouts/statements.service.ts',
    procedure: 'commerce.payouts.statements.csv',
    carries: HOSTILE,
    fetch: async () =>
      (await api(t.app, seller.accessToken).commerce.payouts.statements.csv.query({ month: thisMonth })).csv,
  },
  {
    name: 'the HMRC platform report',
    source: 'api/src/commerce/tax-reporting/reporting.service.ts',
    procedure: 'commerce.taxReporting.staff.exportCsv',
    carries: HOSTILE.slice(0, 5),
    fetch: async () =>
      (
        await api(t.app, admin.accessToken).commerce.taxReporting.staff.exportCsv.query({
          year: ukYear(new Date()),
        })
      ).csv,
  },
  {
    name: 'Gift Aid per donor',
    source: 'api/src/charities/charity-dashboard.service.ts',
    procedure: 'charities.giftAidCsv',
    carries: HOSTILE,
    fetch: async () =>
      (await api(t.app, owner.accessToken).charities.giftAidCsv.query({ taxYear, detail: 'donors' })).csv,
  },
  {
    name: 'Gift Aid per item',
    source: 'api/src/charities/charity-dashboard.service.ts',
    procedure: 'charities.giftAidCsv',
    carries: HOSTILE,
    fetch: async () =>
      (await api(t.app, owner.accessToken).charities.giftAidCsv.query({ taxYear, detail: 'items' })).csv,
  },
  {
    name: 'the bulk-listing rows to correct',
    source: 'api/src/charities/bulk-import.service.ts',
    procedure: 'charities.importCorrections',
    carries: HOSTILE,
    fetch: async () =>
      (await api(t.app, owner.accessToken).charities.importCorrections.query({ importId })).csv,
  },
  ...(['goodreads', 'storygraph'] as const).map(
    (format): CsvFile => ({
      name: `the member’s reading list for ${format}`,
      source: 'api/src/account/reading-lists/reading-lists.service.ts',
      procedure: 'account.readingLists.export',
      carries: HOSTILE,
      fetch: async () =>
        (await api(t.app, seller.accessToken).account.readingLists.export.query({ format })).csv,
    }),
  ),
  {
    name: 'pnpm ops export-orders',
    source: 'api/scripts/ops.ts',
    carries: HOSTILE,
    async fetch() {
      let out = '';
      const code = await runOps(['export-orders', '--period', 'today'], {
        env: { RESHELF_URL: url, RESHELF_TOKEN: opsToken },
        out: (text) => {
          out += text;
        },
        err: () => {},
      });
      expect(code).toBe(0);
      return out;
    },
  },
];

describe('every CSV the site writes', () => {
  it.each(FILES.map((file) => [file.name, file] as const))(
    '%s: hostile cells written as text',
    async (_, file) => {
      const csv = await file.fetch();
      const rows = csvCells(csv);
      expect(rows.length).toBeGreaterThan(1);
      expect(runnableCells(csv)).toEqual([]);
      expect(hostileCellsIn(csv, file.carries)).toEqual([...file.carries]);
      if (file.carries.length === 0) {
        // No text anyone typed: every cell below the header is a day, a count, an amount or "total".
        const values = rows.slice(1).flat();
        expect(values.filter((cell) => !/^(?:-?\d+(?:\.\d+)?|\d{4}-\d{2}-\d{2}|total)$/.test(cell))).toEqual(
          [],
        );
      }
    },
  );

  it('keeps amounts numbers: a refund taken back is a plain negative number', async () => {
    const statement = FILES.find((file) => file.procedure === 'commerce.payouts.statements.csv')!;
    const rows = csvCells(await statement.fetch());
    const amount = rows[0]!.indexOf('amount_gbp');
    const amounts = rows.slice(1).map((row) => row[amount]!);
    expect(amounts).toContain('-3.50');
    expect(amounts.every((cell) => /^-?\d+\.\d{2}$/.test(cell))).toBe(true);
  });

  it('covers every CSV it can find: procedures answering one, staff exports, and writers', () => {
    const procedures = Object.entries(
      (appRouter as unknown as { _def: { procedures: Record<string, { _def: { output?: unknown } }> } })._def
        .procedures,
    )
      .filter(([, procedure]) => {
        const output = procedure._def.output as
          | { _zod?: { def?: { shape?: Record<string, unknown> } } }
          | undefined;
        return Boolean(output?._zod?.def?.shape && 'csv' in output._zod.def.shape);
      })
      .map(([name]) => name)
      .sort();
    expect(procedures.length).toBeGreaterThanOrEqual(4);
    expect([...new Set(FILES.flatMap((file) => (file.procedure ? [file.procedure] : [])))].sort()).toEqual(
      procedures,
    );
    expect(FILES.flatMap((file) => (file.exportKind ? [file.exportKind] : [])).sort()).toEqual(
      [...EXPORT_KINDS].sort(),
    );

    // Every file that writes a CSV (calls the writer) or serves one.
    const writers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const relative = path.posix.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'testing' && entry.name !== 'node_modules') walk(relative);
        } else if (
          /\.ts$/.test(entry.name) &&
          !/\.test\.ts$/.test(entry.name) &&
          relative !== 'api/src/http/csv.ts'
        ) {
          const text = readFileSync(path.join(ROOT, relative), 'utf8');
          if (/\bcsv(?:Text|Stream)\(|text\/csv/.test(text)) writers.push(relative);
        }
      }
    };
    walk('api/src');
    walk('api/scripts');
    // The route that serves the staff exports streams what exports.service.ts writes.
    const served = writers.filter((file) => file !== 'api/src/commerce/exports/exports.route.ts');
    expect(writers).toContain('api/src/commerce/exports/exports.route.ts');
    expect([...new Set(served)].sort()).toEqual([...new Set(FILES.map((file) => file.source))].sort());
  });
});
