/**
 * The hosted storage adapter through supabase-js's Storage client, against a local Supabase
 * Storage stand-in (testing/fake-supabase.ts): the requests it sends, the public URLs it
 * gives, and its failure kinds (not sent → 503; any answer Storage refuses → 502, never the
 * person signed out; "not found" → null).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { SNAPSHOT_BOOKS } from '../../seed/books.ts';
import { createTestDatabase, type TestDatabase } from '../../testing/db.ts';
import { type FakeSupabase, startFakeSupabase } from '../../testing/fake-supabase.ts';
import { createSupabaseStorage } from './supabase.ts';

let database: TestDatabase;
let fake: FakeSupabase;

beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakeSupabase({ databaseUrl: database.url, snapshot: SNAPSHOT_BOOKS });
});

afterAll(async () => {
  await fake?.close();
  await database?.drop();
});

beforeEach(() => {
  fake.heal();
  fake.requests.length = 0;
});

const storageOf = (options: { key?: string; bucket?: string; privateBucket?: string } = {}) =>
  createSupabaseStorage({
    url: fake.url,
    serviceRoleKey: options.key ?? fake.serviceKey,
    bucket: options.bucket ?? 'listing-photos',
    privateBucket: options.privateBucket ?? 'conversation-photos',
    timeoutMs: 2_000,
  });

async function failure(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('Supabase Storage through supabase-js', () => {
  it('creates the public bucket once, then uploads with the service key, type, a year’s cache and upsert', async () => {
    const storage = storageOf();
    await storage.put('listings/l1/p1/1600.webp', Buffer.from('first'), 'image/webp');
    await storage.put('listings/l1/p1/1600.webp', Buffer.from('second'), 'image/webp');
    const sent = fake.requests.map((entry) => `${entry.method} ${entry.url}`);
    expect(sent).toEqual([
      'POST /storage/v1/bucket',
      'POST /storage/v1/object/listing-photos/listings/l1/p1/1600.webp',
      'POST /storage/v1/object/listing-photos/listings/l1/p1/1600.webp',
    ]);
    expect(JSON.parse(fake.requests[0]!.body)).toMatchObject({
      id: 'listing-photos',
      name: 'listing-photos',
      public: true,
    });
    const upload = fake.requests[1]!;
    expect(upload.headers).toMatchObject({
      apikey: fake.serviceKey,
      'content-type': 'image/webp',
      'cache-control': 'max-age=31536000',
      'x-upsert': 'true',
    });
    expect(fake.buckets.get('listing-photos')).toEqual({ public: true });
    expect(fake.objects.get('listing-photos/listings/l1/p1/1600.webp')?.body.toString()).toBe('second');
  });

  it('treats a bucket that exists already (409 Duplicate) as ready', async () => {
    fake.buckets.set('covers', { public: true });
    await storageOf({ bucket: 'covers' }).put('a/b.webp', Buffer.from('x'), 'image/webp');
    expect(fake.objects.has('covers/a/b.webp')).toBe(true);
  });

  it('downloads an object with its type, answers null when there is none, and deletes in one request', async () => {
    const storage = storageOf();
    await storage.put('a/one.png', Buffer.from('png-bytes'), 'image/png');
    expect(await storage.get('a/one.png')).toEqual({
      body: Buffer.from('png-bytes'),
      contentType: 'image/png',
    });
    expect(await storage.get('a/missing.png')).toBeNull();
    fake.requests.length = 0;
    await storage.delete(['a/one.png', 'a/missing.png']);
    expect(fake.requests.map((entry) => `${entry.method} ${entry.url}`)).toEqual([
      'DELETE /storage/v1/object/listing-photos',
    ]);
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({ prefixes: ['a/one.png', 'a/missing.png'] });
    expect(await storage.get('a/one.png')).toBeNull();
    await storage.delete([]);
  });

  it('gives public URLs a browser can fetch without a key, and refuses bad keys before sending', async () => {
    const storage = storageOf();
    await storage.put('covers/c1/480.webp', Buffer.from('webp'), 'image/webp');
    const url = storage.publicUrl('covers/c1/480.webp');
    expect(url).toBe(`${fake.url}/storage/v1/object/public/listing-photos/covers/c1/480.webp`);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('cache-control')).toBe('max-age=31536000');
    fake.requests.length = 0;
    await expect(storage.put('../x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(
      /Invalid storage key/,
    );
    expect(fake.requests).toEqual([]);
  });

  it('keeps a conversation’s photos in a private bucket, served by the BFF, never at a public address', async () => {
    const storage = storageOf({ privateBucket: 'private-evidence' });
    const key = 'messages/0c8f5a3e-4d1b-4c7a-9a53-1f0e2d3c4b5a/0123456789abcdef/1600.webp';
    await storage.put(key, Buffer.from('evidence'), 'image/webp');
    expect(fake.requests.map((entry) => `${entry.method} ${entry.url}`)).toEqual([
      'POST /storage/v1/bucket',
      `POST /storage/v1/object/private-evidence/${key}`,
    ]);
    expect(JSON.parse(fake.requests[0]!.body)).toMatchObject({ id: 'private-evidence', public: false });
    expect(fake.buckets.get('private-evidence')).toEqual({ public: false });
    // Its address is the BFF's, which asks for a signature (storage.route.ts), not the bucket's.
    expect(storage.publicUrl(key)).toBe(`/storage/${key}`);
    const direct = await fetch(`${fake.url}/storage/v1/object/public/private-evidence/${key}`);
    expect(direct.status).toBe(404);
    expect(await storage.get(key)).toEqual({ body: Buffer.from('evidence'), contentType: 'image/webp' });
    fake.requests.length = 0;
    await storage.delete([key, 'listings/l1/p1/1600.webp']);
    expect(fake.requests.map((entry) => `${entry.method} ${entry.url}`).sort()).toEqual([
      'DELETE /storage/v1/object/listing-photos',
      'DELETE /storage/v1/object/private-evidence',
    ]);
    expect(await storage.get(key)).toBeNull();
  });

  it('a request that cannot be sent is 503, and the bucket is tried again next time', async () => {
    const storage = storageOf({ bucket: 'retried' });
    fake.fail('storage', 'down');
    const error = await failure(storage.put('a/b.webp', Buffer.from('x'), 'image/webp'));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.message).toBe('Photo storage could not be reached. Please try again in a moment.');
    fake.heal();
    await storage.put('a/b.webp', Buffer.from('x'), 'image/webp');
    expect(fake.requests.filter((entry) => entry.url === '/storage/v1/bucket')).toHaveLength(2);
  });

  it('a 5xx is 502, with a message for people and the details for the log', async () => {
    const storage = storageOf();
    await storage.put('a/b.webp', Buffer.from('x'), 'image/webp');
    fake.fail('storage', 'error');
    const error = await failure(storage.get('a/b.webp'));
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.message).toBe('Photo storage is not working right now. Please try again in a few minutes.');
    expect(error.details).toMatchObject({ status: 500, operation: 'download' });
  });

  it('a refused service key is our misconfiguration (502), never the person signed out', async () => {
    const error = await failure(
      storageOf({ key: 'sb_secret_not-this-projects-key-000', bucket: 'other' }).put(
        'a/b.webp',
        Buffer.from('x'),
        'image/webp',
      ),
    );
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.toTRPC().code).not.toBe('UNAUTHORIZED');
    expect(error.details).toMatchObject({ status: 403, operation: 'create bucket' });
  });
});
