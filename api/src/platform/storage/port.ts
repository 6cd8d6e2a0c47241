/**
 * The file storage port (brief §2): photos and covers by key. Two adapters: the embedded one
 * writes under DATA_DIR/storage and the BFF serves the files at /storage/<key>; the hosted one
 * keeps them in a public Supabase Storage bucket. Keys are chosen by the BFF, never by a
 * caller, and name content that never changes (a new photo gets a new key), so every public URL
 * can be cached for ever. A conversation's photos are private (private-photos.ts): a private
 * bucket when hosted, and served by the BFF only at short-lived signed addresses.
 */

export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface StoragePort {
  readonly kind: 'embedded' | 'supabase';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  /** Deleting a key that does not exist is not an error. */
  delete(keys: string[]): Promise<void>;
  /** Where a browser or the app can fetch the object: a path on the BFF or a hosted URL. */
  publicUrl(key: string): string;
}

/** Lower-case segments of letters, digits, '-', '_' and '.', never '.' or '..' alone. */
const SEGMENT = /^[a-z0-9][a-z0-9._-]{0,127}$/;

export function isValidKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** Content types by extension: the keys we write always end in one of these. */
export const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  avif: 'image/avif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export function contentTypeOf(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

/** The URL path prefix the BFF serves stored files under. */
export const STORAGE_PATH = '/storage';
