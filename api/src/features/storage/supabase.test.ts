/**
 * The hosted storage adapter at its HTTP boundary: the exact requests it sends to Supabase
 * Storage, and each failure kind (failed to send → 503, relay error or 5xx → 502, a refused
 * service key → 502, "not found" → null).
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { createSupabaseStorage } from './supabase.ts';

const URL_BASE = 'https://proj.supabase.co';
const SERVICE = 'service-role-key-0123456789';

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

function fakeStorage(replies: Reply[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const raw = init?.body;
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers,
      body:
        raw instanceof Uint8Array
          ? Buffer.from(raw).toString('utf8')
          : raw
            ? JSON.parse(String(raw))
            : undefined,
    });
    const reply = replies.shift() ?? { status: 200, body: {} };
    if (reply instanceof Error) throw reply;
    const body =
      reply.body instanceof Uint8Array
        ? reply.body
        : reply.body === undefined
          ? null
          : JSON.stringify(reply.body);
    return new Response(body as ConstructorParameters<typeof Response>[0], {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  const storage = createSupabaseStorage({
    url: URL_BASE,
    serviceRoleKey: SERVICE,
    bucket: 'listing-photos',
    fetch: fetch as typeof globalThis.fetch,
  });
  return { storage, sent };
}

async function failure(work: Promise<unknown>): Promise<AppError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('Supabase storage adapter: requests', () => {
  it('creates the public bucket once, then uploads with the service key, type, long cache and upsert', async () => {
    const { storage, sent } = fakeStorage([
      { status: 200, body: { name: 'listing-photos' } },
      { status: 200, body: { Key: 'listing-photos/listings/l1/p1/1600.webp' } },
      { status: 200, body: { Key: 'listing-photos/listings/l1/p1/400.webp' } },
    ]);
    await storage.put('listings/l1/p1/1600.webp', Buffer.from('large'), 'image/webp');
    await storage.put('listings/l1/p1/400.webp', Buffer.from('thumb'), 'image/webp');
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      url: `${URL_BASE}/storage/v1/bucket`,
      body: { id: 'listing-photos', name: 'listing-photos', public: true },
    });
    expect(sent[1]).toMatchObject({
      method: 'POST',
      url: `${URL_BASE}/storage/v1/object/listing-photos/listings/l1/p1/1600.webp`,
      body: 'large',
    });
    expect(sent[1]!.headers).toMatchObject({
      authorization: `Bearer ${SERVICE}`,
      apikey: SERVICE,
      'content-type': 'image/webp',
      'cache-control': 'max-age=31536000',
      'x-upsert': 'true',
    });
    expect(sent[2]!.url).toBe(`${URL_BASE}/storage/v1/object/listing-photos/listings/l1/p1/400.webp`);
  });

  it('treats a bucket that exists already as ready (409, or 400 saying Duplicate)', async () => {
    for (const exists of [
      { status: 409, body: { error: 'Duplicate' } },
      {
        status: 400,
        body: { statusCode: '409', error: 'Duplicate', message: 'The resource already exists' },
      },
    ]) {
      const { storage, sent } = fakeStorage([exists, { status: 200, body: {} }]);
      await storage.put('a/b.webp', Buffer.from('x'), 'image/webp');
      expect(sent.map((request) => request.url)).toEqual([
        `${URL_BASE}/storage/v1/bucket`,
        `${URL_BASE}/storage/v1/object/listing-photos/a/b.webp`,
      ]);
    }
  });

  it('downloads an object, and answers null when there is none (404, or 400 saying not_found)', async () => {
    const { storage, sent } = fakeStorage([
      { status: 200, body: new Uint8Array([1, 2, 3]), headers: { 'content-type': 'image/webp' } },
      { status: 404, body: { error: 'not_found' } },
      { status: 400, body: { statusCode: '404', error: 'not_found', message: 'Object not found' } },
    ]);
    const found = await storage.get('a/b.webp');
    expect([...(found?.body ?? [])]).toEqual([1, 2, 3]);
    expect(found?.contentType).toBe('image/webp');
    expect(sent[0]).toMatchObject({
      method: 'GET',
      url: `${URL_BASE}/storage/v1/object/listing-photos/a/b.webp`,
    });
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${SERVICE}`);
    expect(await storage.get('a/c.webp')).toBeNull();
    expect(await storage.get('a/d.webp')).toBeNull();
  });

  it('deletes several keys in one request, and nothing for none', async () => {
    const { storage, sent } = fakeStorage([{ status: 200, body: [] }]);
    await storage.delete([]);
    await storage.delete(['a/1600.webp', 'a/400.webp']);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'DELETE',
      url: `${URL_BASE}/storage/v1/object/listing-photos`,
      body: { prefixes: ['a/1600.webp', 'a/400.webp'] },
    });
  });

  it('gives public URLs of the bucket, and refuses bad keys before sending anything', async () => {
    const { storage, sent } = fakeStorage([]);
    expect(storage.publicUrl('listings/l1/p1/1600.webp')).toBe(
      `${URL_BASE}/storage/v1/object/public/listing-photos/listings/l1/p1/1600.webp`,
    );
    await expect(storage.put('../x.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.get('/etc/passwd')).rejects.toThrow(/Invalid storage key/);
    expect(sent).toHaveLength(0);
  });
});

describe('Supabase storage adapter: failures', () => {
  it('a request that cannot be sent is 503 (and the bucket is tried again next time)', async () => {
    const { storage, sent } = fakeStorage([new TypeError('fetch failed'), { status: 200 }, { status: 200 }]);
    const error = await failure(storage.put('a/b.webp', Buffer.from('x'), 'image/webp'));
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.toTRPC().code).toBe('SERVICE_UNAVAILABLE');
    await storage.put('a/b.webp', Buffer.from('x'), 'image/webp');
    expect(sent.map((request) => request.url.replace(URL_BASE, ''))).toEqual([
      '/storage/v1/bucket',
      '/storage/v1/bucket',
      '/storage/v1/object/listing-photos/a/b.webp',
    ]);
  });

  it('a relay error or a 5xx is 502, with a message for people and the details for the log', async () => {
    const relay = fakeStorage([{ status: 200 }, { status: 502, headers: { 'x-relay-error': 'true' } }]);
    const relayError = await failure(relay.storage.put('a/b.webp', Buffer.from('x'), 'image/webp'));
    expect(relayError.code).toBe('BAD_GATEWAY');
    expect(relayError.message).toBe(
      'Photo storage is not working right now. Please try again in a few minutes.',
    );
    expect(relayError.details).toMatchObject({ status: 502, operation: 'upload', detail: 'relay error' });

    const down = fakeStorage([{ status: 503, body: { message: 'upstream down' } }]);
    const downError = await failure(down.storage.get('a/b.webp'));
    expect(downError.code).toBe('BAD_GATEWAY');
    expect(downError.details).toMatchObject({ status: 503, operation: 'download' });
  });

  it('a refused service key is our misconfiguration (502), never the person signed out', async () => {
    const { storage } = fakeStorage([{ status: 200 }, { status: 401, body: { message: 'Invalid JWT' } }]);
    const error = await failure(storage.put('a/b.webp', Buffer.from('x'), 'image/webp'));
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.toTRPC().code).not.toBe('UNAUTHORIZED');
    expect(error.message).not.toMatch(/JWT|key/i);
    expect(error.details).toMatchObject({ status: 401, detail: expect.stringContaining('Invalid JWT') });
    const forbidden = fakeStorage([
      { status: 403, body: { message: 'new row violates row-level security policy' } },
    ]);
    expect((await failure(forbidden.storage.delete(['a/b.webp']))).code).toBe('BAD_GATEWAY');
  });
});
