/**
 * Charities selling: applying with a registered number, staff approval and
 * rejection (emailed, recorded), the approval gate (in the service and in the database),
 * invitations, and bulk listing from CSV: a row-by-row report, duplicates, a retried upload
 * that lists nothing twice, corrections uploaded again, unknown ISBNs, and 2,000 rows.
 */
import { BULK_MESSAGES, CHARITY_NUMBER_MESSAGES } from '@reshelf/contracts';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/index.ts';
import { csvText } from '../http/csv.ts';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, type TestUser } from '../testing/auth.ts';
import { createBook } from '../testing/catalogue.ts';
import { api, type RouterInputs, refusal, statusOf } from '../testing/client.ts';
import { photo } from '../testing/selling.ts';

let t: TestApp;
let db: Database;
let staff: TestUser;
let owner: TestUser;
let helper: TestUser;
let charityId: string;

const KNOWN = ['9780141439518', '9780141439662', '9780141439587', '9780141439600', '9780141439570'];
const UNKNOWN_VALID = '9780951234563';

const application = {
  name: 'Banbury Hospice Books',
  registeredNumber: '1148393',
  contactName: 'Ann Smith',
  contactEmail: 'shop@banbury-hospice.test',
  addressLine1: '12 Parsons Street',
  town: 'Banbury',
  postcode: 'OX16 5LW',
  description: 'Every book sold funds hospice care at home.',
  website: 'banbury-hospice.test',
};

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  staff = await createUser(db, t.services.identity, 'staff@charities.test', { roles: ['moderator'] });
  owner = await createUser(db, t.services.identity, 'owner@charities.test');
  helper = await createUser(db, t.services.identity, 'helper@charities.test');
  for (const [index, isbn13] of KNOWN.entries()) {
    await createBook(db, { title: `Known book ${index + 1}`, isbn13, category: 'fiction' });
  }
});

afterAll(async () => {
  await t?.close();
});

async function mailTo(address: string) {
  return db
    .selectFrom('email_outbox')
    .select(['subject', 'text_body', 'template'])
    .where('to_address', '=', address)
    .orderBy('created_at', 'desc')
    .execute();
}

function upload(user: TestUser, csv: string, filename = 'books.csv') {
  return request(t.app.server)
    .post('/api/uploads/charity-listings')
    .set('authorization', `Bearer ${user.accessToken}`)
    .attach('file', Buffer.from(csv, 'utf8'), { filename, contentType: 'text/csv' });
}

async function finished(user: TestUser, importId: string) {
  await vi.waitFor(
    async () => {
      const status = await api(t.app, user.accessToken).charities.importStatus.query({ importId });
      expect(status.status).toBe('done');
    },
    { timeout: 120_000, interval: 100 },
  );
  return await api(t.app, user.accessToken).charities.importStatus.query({ importId });
}

async function report(
  user: TestUser,
  importId: string,
  filter: RouterInputs['charities']['importReport']['filter'] = 'all',
  pageSize = 200,
) {
  return await api(t.app, user.accessToken).charities.importReport.query({ importId, filter, pageSize });
}

describe('applying to sell as a charity', () => {
  it('explains what is wrong with a charity number, by register', async () => {
    const me = api(t.app, owner.accessToken);
    for (const [number, message] of [
      ['12345', CHARITY_NUMBER_MESSAGES.englandWales],
      ['SC12345', CHARITY_NUMBER_MESSAGES.scotland],
      ['NIC12', CHARITY_NUMBER_MESSAGES.northernIreland],
    ] as const) {
      const response = me.charities.signup.mutate({ ...application, registeredNumber: number });
      expect(await refusal(response)).toEqual({ status: 400, message: `registeredNumber: ${message}` });
    }
  });

  it('takes an application: pending, owned by the applicant, emailed, not yet public', async () => {
    const me = api(t.app, owner.accessToken);
    const created = await me.charities.signup.mutate(application);
    charityId = created.id;
    expect(created).toMatchObject({ slug: 'banbury-hospice-books', name: 'Banbury Hospice Books' });
    expect(await me.charities.mine.query()).toMatchObject({
      status: 'pending',
      role: 'owner',
      registeredNumber: '1148393',
    });
    expect((await mailTo(owner.email))[0]).toMatchObject({ template: 'charity-received' });
    const directory = await me.charities.directory.query({});
    expect(directory.items.map((c) => c.slug)).not.toContain('banbury-hospice-books');
    // Applying twice is refused, and so is someone else with the same number.
    expect(await statusOf(me.charities.signup.mutate(application))).toBe(409);
    const other = api(t.app, helper.accessToken);
    expect(await refusal(other.charities.signup.mutate({ ...application, name: 'Copycat Books' }))).toEqual({
      status: 409,
      message:
        'A charity with the number 1148393 has already applied or sells on Reshelf. If it is yours, ask its owner to invite you.',
    });
  });

  it('takes a logo as a 400 px WebP under the applicant’s own prefix, and only such a logo', async () => {
    const uploaded = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('authorization', `Bearer ${helper.accessToken}`)
      .attach('logo', await photo(900, 600, 'jpeg'), { filename: 'logo.jpg', contentType: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.url).toMatch(
      new RegExp(`/storage/charity-logos/${helper.id}/[0-9a-f]{16}/400\\.webp$`),
    );
    const served = await request(t.app.server).get(uploaded.body.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const notAnImage = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('authorization', `Bearer ${helper.accessToken}`)
      .attach('logo', Buffer.from('not a picture'), { filename: 'logo.png', contentType: 'image/png' });
    expect(notAnImage.status).toBe(400);
    const anonymous = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('x-reshelf-client', 'script')
      .attach('logo', await photo(), { filename: 'logo.png', contentType: 'image/png' });
    expect(anonymous.status).toBe(401);
    // Someone else's logo is refused at sign-up.
    const borrowed = api(t.app, owner.accessToken).charities.signup.mutate({
      ...application,
      registeredNumber: 'NIC100123',
      logoUrl: uploaded.body.url,
    });
    expect(await refusal(borrowed)).toEqual({
      status: 400,
      message: 'Upload your logo again: we couldn’t find the one you chose.',
    });
    // One's own logo is taken, and shown in the directory once approved.
    const applicant = await createUser(db, t.services.identity, 'logo@charities.test');
    const own = await request(t.app.server)
      .post('/api/uploads/charity-logo')
      .set('authorization', `Bearer ${applicant.accessToken}`)
      .attach('logo', await photo(), { filename: 'logo.png', contentType: 'image/png' });
    const created = await api(t.app, applicant.accessToken).charities.signup.mutate({
      ...application,
      name: 'Logo Books',
      registeredNumber: 'NIC100123',
      logoUrl: own.body.url,
    });
    const stored = await db
      .selectFrom('charities')
      .select('logo_url')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.logo_url).toBe(own.body.url);
  });

  it('keeps a pending charity from selling, in the service and in the database', async () => {
    const me = api(t.app, owner.accessToken);
    const start = me.charities.startListing.mutate({ isbn: KNOWN[0]! });
    expect(await statusOf(start)).toBe(403);
    expect((await refusal(start)).message).toMatch(/waiting for approval/);
    const csv = await upload(owner, 'isbn,condition,price\n9780141439518,Good,3.00\n');
    expect(csv.status).toBe(403);
    const book = await db
      .selectFrom('books')
      .select('id')
      .where('isbn13', '=', KNOWN[0]!)
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('listings')
        .values({
          seller_id: owner.id,
          charity_id: charityId,
          book_id: book.id,
          status: 'active',
          slug: 'gate-test',
          condition: 'good',
          price_minor: 300,
          parcel_size: 'small',
        })
        .execute(),
    ).rejects.toMatchObject({ constraint: 'listings_charity_approved' });
  });

  it('lets staff reject with a reason (emailed and recorded), and the applicant apply again', async () => {
    const applicant = await createUser(db, t.services.identity, 'second@charities.test');
    const me = api(t.app, applicant.accessToken);
    const created = await me.charities.signup.mutate({
      ...application,
      name: 'Second Chance Books',
      registeredNumber: 'SC012345',
    });
    const staffCalls = api(t.app, staff.accessToken);
    const queue = await staffCalls.charities.applications.query({ status: 'pending' });
    expect(queue.map((c) => c.id)).toEqual(expect.arrayContaining([created.id, charityId]));
    expect(queue.find((c) => c.id === created.id)).toMatchObject({
      register: 'scotland',
      address: '12 Parsons Street, Banbury, OX16 5LW',
      ownerEmail: 'second@charities.test',
    });
    const short = staffCalls.charities.review.mutate({
      charityId: created.id,
      decision: 'reject',
      reason: 'no',
    });
    expect(await statusOf(short)).toBe(400);
    const reason = 'The charity number belongs to a different charity on the Scottish register.';
    await staffCalls.charities.review.mutate({ charityId: created.id, decision: 'reject', reason });
    const mail = (await mailTo(applicant.email))[0]!;
    expect(mail.template).toBe('charity-rejected');
    expect(mail.text_body).toContain(reason);
    const audit = await db
      .selectFrom('charity_reviews')
      .selectAll()
      .where('charity_id', '=', created.id)
      .execute();
    expect(audit).toMatchObject([{ decision: 'rejected', reason, actor_id: staff.id }]);
    expect(await me.charities.mine.query()).toMatchObject({
      status: 'rejected',
      rejectionReason: reason,
    });
    // A second decision on the same application is refused.
    const again = staffCalls.charities.review.mutate({
      charityId: created.id,
      decision: 'approve',
    });
    expect(await refusal(again)).toEqual({
      status: 409,
      message: 'This application has already been rejected.',
    });
    // The applicant applies again with the corrected number.
    const retry = await me.charities.signup.mutate({
      ...application,
      name: 'Second Chance Books',
      registeredNumber: 'SC054321',
    });
    expect(retry.slug).toBe('second-chance-books-2');
    expect(await me.charities.mine.query()).toMatchObject({ status: 'pending', id: retry.id });
  });

  it('refuses review to people who are not staff', async () => {
    const response = api(t.app, owner.accessToken).charities.review.mutate({
      charityId,
      decision: 'approve',
    });
    expect(await statusOf(response)).toBe(403);
  });

  it('lets staff approve: emailed, recorded, in the directory', async () => {
    await api(t.app, staff.accessToken).charities.review.mutate({ charityId, decision: 'approve' });
    expect((await mailTo(owner.email))[0]).toMatchObject({ template: 'charity-approved' });
    const audit = await db
      .selectFrom('charity_reviews')
      .selectAll()
      .where('charity_id', '=', charityId)
      .execute();
    expect(audit).toMatchObject([{ decision: 'approved', reason: null, actor_id: staff.id }]);
    const profile = await api(t.app, owner.accessToken).charities.bySlug.query({
      slug: 'banbury-hospice-books',
    });
    expect(profile).toMatchObject({ name: 'Banbury Hospice Books', town: 'Banbury' });
  });
});

describe('telling staff about an application', () => {
  it('emails every active admin and counts the applications waiting', async () => {
    const make = (email: string, roles: string[]) => createUser(db, t.services.identity, email, { roles });
    const admins = [
      await make('admin-one@charities.test', ['admin']),
      await make('admin-two@charities.test', ['Admin']),
    ];
    const suspended = await make('admin-away@charities.test', ['admin']);
    await db
      .updateTable('auth.users')
      .set({ banned_until: new Date('9999-12-31T00:00:00Z') })
      .where('id', '=', suspended.id)
      .execute();
    const applicant = await createUser(db, t.services.identity, 'new-applicant@charities.test');
    const waiting = async (user: TestUser) =>
      (await api(t.app, user.accessToken).charities.waitingCount.query()).waiting as number;
    const before = await waiting(staff);
    const pending = await db
      .selectFrom('charities')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(before).toBe(Number(pending.n));

    const created = await api(t.app, applicant.accessToken).charities.signup.mutate({
      ...application,
      name: 'Witney Air Ambulance Books',
      registeredNumber: '1098765',
    });
    for (const admin of admins) {
      const [mail] = await mailTo(admin.email);
      expect(mail, admin.email).toMatchObject({
        template: 'charity-application-staff',
        subject: 'New charity application: Witney Air Ambulance Books',
      });
      expect(mail!.text_body).toContain('1098765');
      expect(mail!.text_body).toContain('/admin/charities');
    }
    // Not moderators, and not an admin who is suspended.
    expect(await mailTo(staff.email)).toEqual([]);
    expect(await mailTo(suspended.email)).toEqual([]);
    expect(await waiting(staff)).toBe(before + 1);
    expect(await waiting(admins[0]!)).toBe(before + 1);
    expect(await statusOf(api(t.app, applicant.accessToken).charities.waitingCount.query())).toBe(403);

    await api(t.app, staff.accessToken).charities.review.mutate({
      charityId: created.id,
      decision: 'approve',
    });
    expect(await waiting(staff)).toBe(before);
  });
});

describe('the charity team', () => {
  it('lets the owner invite staff, who accept once signed in with that address', async () => {
    const me = api(t.app, owner.accessToken);
    await me.charities.invite.mutate({ email: 'Helper@Charities.test' });
    expect((await mailTo('helper@charities.test'))[0]).toMatchObject({ template: 'charity-invited' });
    expect(await statusOf(me.charities.invite.mutate({ email: 'helper@charities.test' }))).toBe(409);
    const them = api(t.app, helper.accessToken);
    const invitations = await them.charities.invitations.query();
    expect(invitations).toMatchObject([{ charityName: 'Banbury Hospice Books' }]);
    // Someone else cannot accept it.
    const stranger = await createUser(db, t.services.identity, 'stranger@charities.test');
    const stolen = api(t.app, stranger.accessToken).charities.acceptInvitation.mutate({
      invitationId: invitations[0]!.id,
    });
    expect(await statusOf(stolen)).toBe(404);
    const joined = await them.charities.acceptInvitation.mutate({ invitationId: invitations[0]!.id });
    expect(joined).toMatchObject({ name: 'Banbury Hospice Books', role: 'staff', status: 'approved' });
    const team = await me.charities.team.query();
    expect(team.members.map((m) => m.role)).toEqual(['owner', 'staff']);
    expect(team.invitations).toEqual([]);
    // Staff sell for the charity but cannot invite.
    expect(await statusOf(them.charities.invite.mutate({ email: 'x@charities.test' }))).toBe(403);
  });

  it('starts a listing for the charity through the sell wizard, with its donor reference', async () => {
    const them = api(t.app, helper.accessToken);
    const started = await them.charities.startListing.mutate({ isbn: KNOWN[1]!, donorReference: 'D-77' });
    expect(started.source).toBe('catalogue');
    const row = await db
      .selectFrom('listings')
      .select(['charity_id', 'donor_reference', 'status', 'seller_id'])
      .where('id', '=', started.listing.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      charity_id: charityId,
      donor_reference: 'D-77',
      status: 'draft',
      seller_id: helper.id,
    });
  });
});

function rows50(): string {
  const lines = ['isbn,condition,price,notes,donor_reference,photo_url'];
  for (let i = 0; i < 50; i++) {
    const isbn = KNOWN[i % KNOWN.length];
    const donor = i % 3 === 0 ? `D-${100 + (i % 7)}` : '';
    lines.push(
      `${isbn},${['Like new', 'Very good', 'Good', 'Well read'][i % 4]},${(2 + i / 10).toFixed(2)},Copy ${i + 1},${donor},`,
    );
  }
  lines[11] = '9780141439519,Good,3.00,Copy 11,,'; // a bad check digit
  lines[23] = `${KNOWN[2]},Very good,,Copy 23,,`; // no price
  lines[37] = `${KNOWN[1]},Mint,4.00,Copy 37,,`; // a condition we do not use
  return `${lines.join('\n')}\n`;
}

describe('bulk listing from a CSV', () => {
  let importId: string;

  it('refuses a file without the columns it needs, saying which', async () => {
    const response = await upload(owner, 'isbn,price\n9780141439518,3.00\n');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(BULK_MESSAGES.missingColumns(['condition']));
    const unknown = await upload(owner, 'isbn,condition,price,shelf\n9780141439518,Good,3.00,B2\n');
    expect(unknown.body.message).toBe(BULK_MESSAGES.unknownColumns(['shelf']));
  });

  it('lists 50 rows with three bad ones and reports each bad row', async () => {
    const response = await upload(owner, rows50(), 'spring-donations.csv');
    expect(response.status).toBe(201);
    importId = response.body.id;
    expect(response.body).toMatchObject({ totalRows: 50, invalidRows: 3, repeated: false });
    const done = await finished(owner, importId);
    expect(done).toMatchObject({ processedRows: 50, listedRows: 47, draftRows: 0, failedRows: 0 });
    const problems = await report(owner, importId, 'problems');
    expect(problems.rows.map((r) => [r.rowNumber, r.errors])).toEqual([
      [12, ['ISBN: That ISBN’s last digit doesn’t match the others: check it against the book']],
      [24, [BULK_MESSAGES.priceMissing]],
      [38, [BULK_MESSAGES.conditionUnknown('Mint')]],
    ]);
    const listed = await db
      .selectFrom('listings')
      .select(['status', 'charity_id', 'donor_reference', 'condition_notes', 'seller_id'])
      .where('charity_id', '=', charityId)
      .where('status', '=', 'active')
      .execute();
    expect(listed).toHaveLength(47);
    expect(listed.every((l) => l.seller_id === owner.id)).toBe(true);
    // Every third row has a donor reference (17), less row 38, which was bad.
    expect(listed.filter((l) => l.donor_reference).length).toBe(16);
  });

  it('answers a retried upload of the same file with its report, listing nothing twice', async () => {
    const again = await upload(owner, rows50(), 'spring-donations.csv');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: importId, repeated: true, listedRows: 47 });
    const count = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('charity_id', '=', charityId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(47);
  });

  it('gives the rows to correct as a CSV that, corrected, uploads again', async () => {
    const file = await api(t.app, owner.accessToken).charities.importCorrections.query({ importId });
    expect(file.fileName).toBe('spring-donations-to-correct.csv');
    const records = parse(file.csv, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.problems)).toEqual([
      'Row 12: ISBN: That ISBN’s last digit doesn’t match the others: check it against the book',
      `Row 24: ${BULK_MESSAGES.priceMissing}`,
      `Row 38: ${BULK_MESSAGES.conditionUnknown('Mint')}`,
    ]);
    records[0]!.isbn = '9780141439518';
    records[1]!.price = '3.50';
    records[2]!.condition = 'Like new';
    const header = Object.keys(records[0]!);
    const fixed = [header.join(','), ...records.map((r) => header.map((h) => r[h]).join(','))].join('\n');
    const response = await upload(owner, fixed, 'spring-donations-to-correct.csv');
    expect(response.body).toMatchObject({ totalRows: 3, invalidRows: 0 });
    expect(await finished(owner, response.body.id)).toMatchObject({ listedRows: 3 });
  });

  it('writes the rows to correct with formulas as text, and takes its own quote marks off on upload', async () => {
    const csv = [
      'isbn,condition,price,notes,donor_reference,title',
      `${KNOWN[2]},Good,,- slight foxing,@SUM(1),"=HYPERLINK(""http://evil"",""x"")"`,
    ].join('\n');
    const first = await upload(helper, csv, 'formulas.csv');
    expect(first.body).toMatchObject({ totalRows: 1, invalidRows: 1 });
    await finished(helper, first.body.id);
    const file = await api(t.app, helper.accessToken).charities.importCorrections.query({
      importId: first.body.id,
    });
    // What a spreadsheet opens: every cell someone typed that starts a formula is text.
    expect(file.csv).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    const [record] = parse(file.csv, { columns: true }) as Record<string, string>[];
    expect(record).toMatchObject({
      notes: "'- slight foxing",
      donor_reference: "'@SUM(1)",
      title: `'=HYPERLINK("http://evil","x")`,
    });
    // Corrected in the spreadsheet (a price, a donor reference the rules accept) and sent back:
    // the notes are what was first typed, without our quote mark.
    const fixed = csvText(Object.keys(record!), [
      { ...record!, price: '3.00', donor_reference: 'F-0001', title: '' },
    ]);
    const again = await upload(helper, fixed, 'formulas-to-correct.csv');
    expect(again.body).toMatchObject({ totalRows: 1, invalidRows: 0 });
    expect(await finished(helper, again.body.id)).toMatchObject({ listedRows: 1 });
    const listed = await db
      .selectFrom('listings')
      .select(['condition_notes', 'price_minor'])
      .where('donor_reference', '=', 'F-0001')
      .executeTakeFirstOrThrow();
    expect(listed).toEqual({ condition_notes: '- slight foxing', price_minor: 300 });
  });

  it('flags duplicates within a file, and lists unknown ISBNs (typed in, or as drafts)', async () => {
    const csv = [
      'isbn,condition,price,notes,title,author',
      `${KNOWN[3]},Good,2.00,Same copy,,`,
      `${KNOWN[3]},good,2.00,Same  copy,,`,
      `${UNKNOWN_VALID},Good,5.00,,A Local History of Banbury,J. Smith`,
      '9780999990001,Good,5.00,,,',
    ].join('\n');
    const response = await upload(helper, csv, 'mixed.csv');
    expect(response.body).toMatchObject({ totalRows: 4, invalidRows: 1 });
    const done = await finished(helper, response.body.id);
    expect(done).toMatchObject({ listedRows: 2, draftRows: 1 });
    const all = await report(helper, response.body.id);
    expect(all.rows.map((r) => r.status)).toEqual(['listed', 'invalid', 'listed', 'draft']);
    expect(all.rows[1]?.errors).toEqual([BULK_MESSAGES.duplicate(2)]);
    expect(all.rows[2]?.title).toBe('A Local History of Banbury');
    const draft = await db
      .selectFrom('listings')
      .select(['status', 'draft_isbn13', 'charity_id'])
      .where('id', '=', all.rows[3]!.listingId)
      .executeTakeFirstOrThrow();
    expect(draft).toEqual({ status: 'draft', draft_isbn13: '9780999990001', charity_id: charityId });
  });

  it('lists a row’s collectors’ details, and refuses a Bookman grade on a copy that is not collectable', async () => {
    const csv = [
      'isbn,condition,price,notes,first_edition,signed,ex_library,dust_jacket,bookman_grade',
      `${KNOWN[4]},Very good,40.00,Signed first,yes,yes,,Near Fine,Near Fine`,
      `${KNOWN[4]},Good,2.00,Library copy,,,yes,none,`,
      `${KNOWN[4]},Good,2.50,Not collectable,,,,,Fine`,
    ].join('\n');
    const response = await upload(helper, csv, 'collectors.csv');
    expect(response.body).toMatchObject({ totalRows: 3, invalidRows: 1 });
    const done = await finished(helper, response.body.id);
    expect(done).toMatchObject({ listedRows: 2 });
    const all = await report(helper, response.body.id);
    expect(all.rows[2]?.errors).toEqual([BULK_MESSAGES.bookmanNotCollectable]);
    const copies = await db
      .selectFrom('listings')
      .select(['first_edition', 'signed', 'ex_library', 'first_printing', 'dust_jacket', 'bookman_grade'])
      .where('id', 'in', [all.rows[0]!.listingId!, all.rows[1]!.listingId!])
      .orderBy('price_minor', 'desc')
      .execute();
    expect(copies).toEqual([
      {
        first_edition: true,
        signed: true,
        ex_library: false,
        first_printing: false,
        dust_jacket: 'near_fine',
        bookman_grade: 'near_fine',
      },
      {
        first_edition: false,
        signed: false,
        ex_library: true,
        first_printing: false,
        dust_jacket: 'none',
        bookman_grade: null,
      },
    ]);
  });

  it('lists 2,000 rows in one upload, in batches that show progress', async () => {
    const lines = ['isbn,condition,price,notes'];
    for (let i = 0; i < 2000; i++)
      lines.push(`${KNOWN[i % 5]},Good,${(1 + (i % 50) / 10).toFixed(2)},Box ${i}`);
    const response = await upload(owner, lines.join('\n'), 'warehouse.csv');
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ totalRows: 2000, invalidRows: 0 });
    const seen = new Set<number>();
    await vi.waitFor(
      async () => {
        const status = await api(t.app, owner.accessToken).charities.importStatus.query({
          importId: response.body.id,
        });
        seen.add(status.processedRows);
        expect(status.status).toBe('done');
      },
      { timeout: 180_000, interval: 50 },
    );
    const done = await finished(owner, response.body.id);
    expect(done).toMatchObject({ processedRows: 2000, listedRows: 2000 });
    // Progress moves in whole batches of 100.
    expect([...seen].every((n) => n % 100 === 0)).toBe(true);
    const rows = await db
      .selectFrom('charity_import_rows')
      .select((eb) => eb.fn.count<string>('listing_id').distinct().as('n'))
      .where('import_id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(2000);
  }, 240_000);

  it('refuses more than 2,000 rows', async () => {
    const lines = ['isbn,condition,price,notes'];
    for (let i = 0; i < 2001; i++) lines.push(`${KNOWN[0]},Good,1.00,Extra ${i}`);
    const response = await upload(owner, lines.join('\n'), 'too-many.csv');
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(BULK_MESSAGES.tooManyRows);
  });

  it('keeps other people out of a charity’s imports', async () => {
    const outsider = await createUser(db, t.services.identity, 'outsider@charities.test');
    const response = api(t.app, outsider.accessToken).charities.importStatus.query({ importId });
    expect(await statusOf(response)).toBe(403);
  });
});
