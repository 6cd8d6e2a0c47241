/**
 * The hosted storage adapter: a public Supabase Storage bucket, reached with the service-role
 * key through Storage's REST API (no supabase-js: four plain requests). Failure kinds, as for
 * the other hosted adapters: a request that cannot be sent → 503; a relay error or a 5xx →
 * 502; any other non-2xx → 502 too, because every request carries our own service key, so a
 * 401 or 403 means the BFF is misconfigured, not that the person's session has ended (it is
 * logged with the status and never shown to them).
 */
import { AppError } from '../../errors.ts';
import { assertValidKey, type StoragePort } from './storage.ts';

export interface SupabaseStorageOptions {
  url: string;
  serviceRoleKey: string;
  bucket: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

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

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

export function createSupabaseStorage(options: SupabaseStorageOptions): StoragePort {
  const send = options.fetch ?? fetch;
  const base = `${options.url.replace(/\/$/, '')}/storage/v1`;
  const auth = { authorization: `Bearer ${options.serviceRoleKey}`, apikey: options.serviceRoleKey };
  let bucketReady: Promise<void> | undefined;

  async function request(operation: string, url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await send(url, {
        ...init,
        headers: { ...auth, ...(init.headers as Record<string, string>) },
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch {
      throw new AppError('UNAVAILABLE', 'Photo storage could not be reached. Please try again in a moment.', {
        operation,
      });
    }
    if (response.headers.get('x-relay-error') === 'true') {
      throw new StorageHttpError(response.status, operation, 'relay error');
    }
    return response;
  }

  async function failure(operation: string, response: Response): Promise<never> {
    const detail = await response.text().catch(() => '');
    throw new StorageHttpError(response.status, operation, detail.slice(0, 500));
  }

  /** Storage answers "not found" as a 404, or (older versions) a 400 whose body says 404. */
  async function isNotFound(response: Response): Promise<boolean> {
    if (response.status === 404) return true;
    if (response.status !== 400) return false;
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as { statusCode?: string; error?: string };
    return body.statusCode === '404' || body.error === 'not_found';
  }

  /** Creates the public bucket the first time we write; one that exists already is fine. */
  function ensureBucket(): Promise<void> {
    bucketReady ??= (async () => {
      const response = await request('create bucket', `${base}/bucket`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: options.bucket, name: options.bucket, public: true }),
      });
      if (response.ok || response.status === 409) return;
      if (response.status === 400) {
        const body = (await response
          .clone()
          .json()
          .catch(() => ({}))) as { statusCode?: string; error?: string };
        if (body.statusCode === '409' || body.error === 'Duplicate') return;
      }
      await failure('create bucket', response);
    })().catch((error) => {
      bucketReady = undefined;
      throw error;
    });
    return bucketReady;
  }

  return {
    kind: 'supabase',
    async put(key, body, contentType) {
      assertValidKey(key);
      await ensureBucket();
      const response = await request('upload', `${base}/object/${options.bucket}/${encodeKey(key)}`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'cache-control': 'max-age=31536000',
          'x-upsert': 'true',
        },
        body: new Uint8Array(body),
      });
      if (!response.ok) await failure('upload', response);
    },
    async get(key) {
      assertValidKey(key);
      const response = await request('download', `${base}/object/${options.bucket}/${encodeKey(key)}`, {
        method: 'GET',
      });
      if (await isNotFound(response)) return null;
      if (!response.ok) await failure('download', response);
      return {
        body: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      };
    },
    async delete(keys) {
      if (keys.length === 0) return;
      for (const key of keys) assertValidKey(key);
      const response = await request('delete', `${base}/object/${options.bucket}`, {
        method: 'DELETE',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prefixes: keys }),
      });
      if (!response.ok && !(await isNotFound(response))) await failure('delete', response);
    },
    publicUrl(key) {
      assertValidKey(key);
      return `${base}/object/public/${options.bucket}/${encodeKey(key)}`;
    },
  };
}
