/**
 * A NUL character (which PostgreSQL cannot store) anywhere a client sends text is refused at
 * the boundary with a 400 naming the field: procedure inputs on /trpc and the REST API, CSV
 * cells of a bulk listing, multipart fields, and the parameters of the other REST routes. So is
 * half of a surrogate pair, which jsonb (the audit log's details, for one) refuses.
 */
import { BULK_TEMPLATE_CSV, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '@reshelf/contracts';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';
import { createUser, type TestUser, WEB } from '../testing/auth.ts';
import { createCharity } from '../testing/catalogue.ts';
import { api, failure } from '../testing/client.ts';
import { photo, uploadListingPhoto } from '../testing/selling.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t.database.handle.db, t.services.identity, 'nul-owner@example.com');
  await createCharity(t.database.handle.db, { slug: 'nul-books', name: 'Nul Books', ownerId: owner.id });
});

afterAll(async () => {
  await t.close();
});

function noServerErrors() {
  return t.logs.filter((line) => /"level":50/.test(line));
}

describe('procedure inputs', () => {
  it('refuses a NUL in a mutation’s field, naming it, and stores nothing', async () => {
    const response = await request(t.app.server).post('/trpc/platform.contact.submit').set(WEB).send({
      name: 'Jo\u0000March',
      email: 'jo@example.com',
      topic: 'general',
      message: 'Hello, this is long enough to be a message.',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe(`name: ${NUL_MESSAGE}`);
    expect(response.body.error.data.zodError.fieldErrors).toEqual({ name: [NUL_MESSAGE] });
    const stored = await t.database.handle.db.selectFrom('contact_messages').select('id').execute();
    expect(stored).toEqual([]);
  });

  it('refuses a NUL in a query’s input and in a nested field', async () => {
    const search = await request(t.app.server)
      .get('/trpc/catalogue.listings.search')
      .query({ input: JSON.stringify({ q: 'dune\u0000' }) });
    expect(search.status).toBe(400);
    expect(search.body.error.message).toBe(`q: ${NUL_MESSAGE}`);

    const seller = await createUser(t.database.handle.db, t.services.identity, 'nul-seller@example.com');
    const nested = await failure(
      api(t.app, seller.accessToken).commerce.checkout.saveAddress.mutate({
        address: { fullName: 'Jo', line1: '1 High St\u0000', town: 'Oxford', postcode: 'OX1 1AA' },
      } as never),
    );
    expect(nested.status).toBe(400);
    expect(nested.message).toBe(`address.line1: ${NUL_MESSAGE}`);
  });

  it('refuses a NUL in a REST API query parameter and path', async () => {
    const query = await request(t.app.server).get('/api/v1/listings/search').query({ q: 'dune\u0000' });
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({
      code: 'BAD_REQUEST',
      message: `q: ${NUL_MESSAGE}`,
      issues: [{ path: 'q', message: NUL_MESSAGE }],
    });
    const path = await request(t.app.server).get('/api/v1/listings/dune%00');
    expect(path.status).toBe(400);
    expect(path.body.message).toBe(`slug: ${NUL_MESSAGE}`);
    expect(noServerErrors()).toEqual([]);
  });

  it('refuses half of a surrogate pair, which the audit log’s jsonb cannot hold', async () => {
    const staff = await createUser(t.database.handle.db, t.services.identity, 'nul-staff@example.com', {
      roles: ['moderator'],
    });
    const response = await failure(
      api(t.app, staff.accessToken).staff.launchPlan.add.mutate({
        title: 'Order the shelving \ud83d',
      } as never),
    );
    expect(response.status).toBe(400);
    expect(response.message).toBe(`title: ${LONE_SURROGATE_MESSAGE}`);
    expect(noServerErrors()).toEqual([]);
  });

  it('checks access before the input, as for every other input problem', async () => {
    const response = await request(t.app.server)
      .get('/trpc/staff.users.search')
      .query({ input: JSON.stringify({ q: 'a\u0000' }) });
    expect(response.status).toBe(401);
  });
});

describe('files and the other routes', () => {
  function uploadCsv(csv: string, filename = 'books.csv') {
    return request(t.app.server)
      .post('/api/uploads/charity-listings')
      .set('authorization', `Bearer ${owner.accessToken}`)
      .attach('file', Buffer.from(csv, 'utf8'), { filename, contentType: 'text/csv' });
  }

  it('refuses a bulk-listing CSV with a NUL in a cell, naming its row and column', async () => {
    const [header, first, second] = BULK_TEMPLATE_CSV.split('\r\n');
    const csv = [header, first, second?.replace('D-00124', 'D-00\u0000124')].join('\r\n');
    const response = await uploadCsv(csv);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(`Row 3, donor_reference: ${NUL_MESSAGE}`);
    const imports = await t.database.handle.db.selectFrom('charity_imports').select('id').execute();
    expect(imports).toEqual([]);
  });

  it('refuses a multipart file name with a NUL', async () => {
    const csv = await uploadCsv(BULK_TEMPLATE_CSV, 'books\u0000.csv');
    expect(csv.status).toBe(400);
    expect(csv.body.message).toBe(`File name: ${NUL_MESSAGE}`);

    const draft = await api(t.app, owner.accessToken).selling.listings.start.mutate({ isbn: null });
    const listingId = draft.listing.id;
    const image = await uploadListingPhoto(
      t.app,
      owner.accessToken,
      listingId,
      await photo(),
      'a\u0000.png',
      'image/png',
    );
    expect(image.status).toBe(400);
    expect(image.body.message).toBe(`File name: ${NUL_MESSAGE}`);
  });

  it('refuses a NUL in the parameters of the other routes', async () => {
    const page = await request(t.app.server).get('/payments/test/tp_abc%00');
    expect(page.status).toBe(400);
    expect(page.body.message).toBe(`ref: ${NUL_MESSAGE}`);
    const choice = await request(t.app.server).post('/payments/test/tp_abc%00/success');
    expect(choice.status).toBe(400);
    const upload = await request(t.app.server)
      .post('/api/uploads/listing-photo?listingId=a%00')
      .set('authorization', `Bearer ${owner.accessToken}`)
      .attach('photo', await photo(), 'a.png');
    expect(upload.status).toBe(400);
    expect(upload.body.message).toBe(`listingId: ${NUL_MESSAGE}`);
    expect(noServerErrors()).toEqual([]);
  });
});
