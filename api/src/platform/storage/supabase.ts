/**
 * The hosted storage adapter: a public Supabase Storage bucket for listing photos, logos and
 * covers, and a private one for a conversation's photos (private-photos.ts: the BFF serves them
 * at /storage/<key> with a short-lived signature, reading them with the service key), through supabase-js's Storage
 * client (`storage.from(bucket).upload/download/remove/getPublicUrl`, `createBucket`) with the
 * service key. Failure kinds, as for the other hosted adapters: a request that cannot be sent
 * (or times out) → 503; any answer Storage refuses → 502, because every request carries our
 * own service key, so a 401 or 403 means the BFF is misconfigured, not that the person's
 * session has ended (it is logged with the status and never shown to them).
 */
import { StorageApiError } from '@supabase/supabase-js';

/** What storage-js answers with: StorageApiError (answered) or StorageUnknownError (not sent). */
type StorageError = Error;

import { AppError } from '../../errors.ts';
import { createServerClient } from '../../supabase-client.ts';
import { assertValidKey, STORAGE_PATH, type StoragePort } from './port.ts';
import { isPrivateKey } from './private-photos.ts';

export interface SupabaseStorageOptions {
  url: string;
  serviceRoleKey: string;
  bucket: string;
  /** The private bucket for a conversation's photos (never readable without the service key). */
  privateBucket: string;
  fetch?: typeof fetch;
  /** How long one request may take before it counts as not sent (30 s). */
  timeoutMs?: number;
}

export const STORAGE_UNAVAILABLE_MESSAGE =
  'Photo storage could not be reached. Please try again in a moment.';

/** A failure answered by Storage, kept with its status for the logs. */
export class StorageHttpError extends AppError {
  constructor(
    readonly status: number,
    readonly operation: string,
    detail: string,
  ) {
    super('BAD_GATEWAY', 'Photo storage is not working right now. Please try again in a few minutes.', {
      status,
      operation,
      detail,
    });
  }
}

/** Storage's "not found": a 404, or (older servers) a 400 whose body says 404. */
function isNotFound(error: StorageError): boolean {
  if (!(error instanceof StorageApiError)) return false;
  return error.status === 404 || error.statusCode === '404' || error.statusCode === 'not_found';
}

/** "Already exists": 409, or (older servers) a 400 whose body says 409 / Duplicate. */
function isDuplicate(error: StorageError): boolean {
  if (!(error instanceof StorageApiError)) return false;
  return (
    error.status === 409 || error.statusCode === '409' || /duplicate|already exists/i.test(error.message)
  );
}

/** The port's error for a Storage failure: not sent → 503; answered → 502 with its status. */
function failure(operation: string, error: StorageError): AppError {
  if (error instanceof StorageApiError) {
    return new StorageHttpError(error.status, operation, `${error.statusCode ?? ''} ${error.message}`.trim());
  }
  // StorageUnknownError: the fetch itself failed (refused, reset, timed out).
  return new AppError('UNAVAILABLE', STORAGE_UNAVAILABLE_MESSAGE, { operation, detail: error.message });
}

export function createSupabaseStorage(options: SupabaseStorageOptions): StoragePort {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const client = createServerClient({
    url: options.url,
    serviceRoleKey: options.serviceRoleKey,
    fetch: (input, init) => {
      const timeout = AbortSignal.timeout(timeoutMs);
      return send(input, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout,
      });
    },
  });
  const nameOf = (key: string) => (isPrivateKey(key) ? options.privateBucket : options.bucket);
  const bucket = (key: string) => client.storage.from(nameOf(key));
  const bucketsReady = new Map<string, Promise<void>>();

  /** Creates the key's bucket (public, or private) the first time we write; one that exists is fine. */
  function ensureBucket(key: string): Promise<void> {
    const name = nameOf(key);
    let ready = bucketsReady.get(name);
    if (!ready) {
      ready = (async () => {
        const { error } = await client.storage.createBucket(name, { public: !isPrivateKey(key) });
        if (error && !isDuplicate(error)) throw failure('create bucket', error);
      })().catch((error) => {
        bucketsReady.delete(name);
        throw error;
      });
      bucketsReady.set(name, ready);
    }
    return ready;
  }

  return {
    kind: 'supabase',
    async put(key, body, contentType) {
      assertValidKey(key);
      await ensureBucket(key);
      const { error } = await bucket(key).upload(key, body, {
        contentType,
        cacheControl: '31536000',
        upsert: true,
      });
      if (error) throw failure('upload', error);
    },
    async get(key) {
      assertValidKey(key);
      const { data, error } = await bucket(key).download(key);
      if (error) {
        if (isNotFound(error)) return null;
        throw failure('download', error);
      }
      return {
        body: Buffer.from(await data.arrayBuffer()),
        contentType: data.type || 'application/octet-stream',
      };
    },
    async delete(keys) {
      if (keys.length === 0) return;
      for (const key of keys) assertValidKey(key);
      const byBucket = new Map<string, string[]>();
      for (const key of keys) byBucket.set(nameOf(key), [...(byBucket.get(nameOf(key)) ?? []), key]);
      for (const [name, inBucket] of byBucket) {
        const { error } = await client.storage.from(name).remove(inBucket);
        if (error && !isNotFound(error)) throw failure('delete', error);
      }
    },
    publicUrl(key) {
      assertValidKey(key);
      // A private file has no public address: the BFF's own, which needs a signature.
      if (isPrivateKey(key)) return `${STORAGE_PATH}/${key}`;
      return bucket(key).getPublicUrl(key).data.publicUrl;
    },
  };
}
