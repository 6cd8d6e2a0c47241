/** The embedded storage adapter on a temporary directory, and what a key may be. */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedStorage } from './embedded.ts';
import { contentTypeOf, isValidKey } from './port.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'reshelf-storage-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('storage keys', () => {
  it('accepts lower-case paths of plain segments', () => {
    expect(isValidKey('listings/0b8f4c1e-1111-4222-8333-444455556666/ab12cd/1600.webp')).toBe(true);
    expect(isValidKey('covers/x.jpg')).toBe(true);
  });

  it('refuses traversal, absolute paths, empty segments and odd characters', () => {
    for (const key of [
      '',
      '../secret',
      'a/../../etc/passwd',
      '/etc/passwd',
      'a//b',
      'a/./b',
      'a/..',
      '..',
      'a\\b',
      'a/%2e%2e/b',
      'A/B.webp',
      'a b',
      `a/${'x'.repeat(200)}`,
    ]) {
      expect(isValidKey(key), key).toBe(false);
    }
  });

  it('knows the content type of what we write', () => {
    expect(contentTypeOf('a/1600.webp')).toBe('image/webp');
    expect(contentTypeOf('a/b.jpg')).toBe('image/jpeg');
    expect(contentTypeOf('a/b.png')).toBe('image/png');
    expect(contentTypeOf('a/b')).toBe('application/octet-stream');
  });
});

describe('embedded storage', () => {
  it('puts, gets and deletes by key under its root, and serves under /storage', async () => {
    const storage = createEmbeddedStorage(root);
    const body = Buffer.from('RIFF....WEBPVP8 not really');
    await storage.put('listings/abc/ph1/1600.webp', body, 'image/webp');
    expect(await readdir(path.join(root, 'listings/abc/ph1'))).toEqual(['1600.webp']);
    const stored = await storage.get('listings/abc/ph1/1600.webp');
    expect(stored?.body.equals(body)).toBe(true);
    expect(stored?.contentType).toBe('image/webp');
    expect(storage.publicUrl('listings/abc/ph1/1600.webp')).toBe('/storage/listings/abc/ph1/1600.webp');
    await storage.delete(['listings/abc/ph1/1600.webp', 'listings/abc/ph1/missing.webp']);
    expect(await storage.get('listings/abc/ph1/1600.webp')).toBeNull();
  });

  it('answers null for a missing key or a directory, and never reads outside its root', async () => {
    const storage = createEmbeddedStorage(path.join(root, 'storage'));
    await writeFile(path.join(root, 'secret.txt'), 'not for you');
    await storage.put('a/b.webp', Buffer.from('x'), 'image/webp');
    expect(await storage.get('a')).toBeNull();
    expect(await storage.get('nothing/here.webp')).toBeNull();
    expect(await storage.get('../secret.txt')).toBeNull();
    await expect(storage.put('../escape.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(
      /Invalid storage key/,
    );
    await expect(storage.delete(['../secret.txt'])).rejects.toThrow(/Invalid storage key/);
    expect(await readdir(root)).toEqual(expect.arrayContaining(['secret.txt', 'storage']));
  });

  it('never leaves a half-written file under the key', async () => {
    const storage = createEmbeddedStorage(root);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        storage.put('same/key.webp', Buffer.alloc(50_000, i), 'image/webp'),
      ),
    );
    const stored = await storage.get('same/key.webp');
    expect(stored?.body.length).toBe(50_000);
    expect(new Set(stored?.body).size).toBe(1);
    expect((await readdir(path.join(root, 'same'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
