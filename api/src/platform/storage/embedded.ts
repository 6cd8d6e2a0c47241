/**
 * The embedded storage adapter: files under DATA_DIR/storage, served by the BFF at
 * /storage/<key> (storage.route.ts). A write goes to a temporary file first and is renamed
 * into place, so a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, contentTypeOf, STORAGE_PATH, type StoragePort } from './port.ts';

export function createEmbeddedStorage(root: string): StoragePort {
  const base = path.resolve(root);

  /** The file for a key, refusing anything that would land outside the root. */
  function fileOf(key: string): string {
    assertValidKey(key);
    const file = path.resolve(base, ...key.split('/'));
    if (!file.startsWith(`${base}${path.sep}`)) throw new Error(`Invalid storage key: ${key}`);
    return file;
  }

  return {
    kind: 'embedded',
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, body);
      await rename(temporary, file);
    },
    async get(key) {
      let file: string;
      try {
        file = fileOf(key);
      } catch {
        return null;
      }
      try {
        return { body: await readFile(file), contentType: contentTypeOf(key) };
      } catch (error) {
        if (
          (error as NodeJS.ErrnoException).code === 'ENOENT' ||
          (error as NodeJS.ErrnoException).code === 'EISDIR'
        ) {
          return null;
        }
        throw error;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },
    publicUrl(key) {
      assertValidKey(key);
      return `${STORAGE_PATH}/${key}`;
    },
  };
}
