/**
 * How the BFF serves the built web and compresses its answers: the build's .br/.gz copies
 * (web/precompress.ts) as they are, chosen by Accept-Encoding; hashed assets cached for a year,
 * the page never without asking; API JSON of 1 KB or more compressed with brotli or gzip, small
 * answers not at all (event streams: api/src/http/compression.test.ts).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../api/src/testing/app.ts';
import { createUser, TEST_PASSWORD, WEB } from '../../api/src/testing/auth.ts';
import { precompressDir } from '../../web/precompress.ts';

let t: TestApp;
let webDist: string;

/** Text that compresses well and is well over the threshold. */
const filler = (what: string) =>
  Array.from({ length: 200 }, (_, i) => `${what} line ${i}: the quick brown fox.`).join('\n');

beforeAll(async () => {
  webDist = await mkdtemp(path.join(tmpdir(), 'reshelf-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(
    path.join(webDist, 'index.html'),
    `<!doctype html><html><head><script type="module" src="/assets/app-Ab12Cd34.js"></script></head><body><div id="root"></div><!--\n${filler('page')}\n--></body></html>`,
  );
  await writeFile(
    path.join(webDist, 'assets/app-Ab12Cd34.js'),
    `export const text = ${JSON.stringify(filler('script'))};`,
  );
  await writeFile(
    path.join(webDist, 'assets/app-Ef56Gh78.css'),
    `/* ${filler('style')} */ body { color: #222; }`,
  );
  await writeFile(path.join(webDist, 'assets/tiny-Zz99Yy88.js'), 'export {};');
  await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  // Built the way `vite build` builds it.
  expect(await precompressDir(webDist)).toBe(3);
  t = await createTestApp({ env: { WEB_DIST: webDist } });
});

afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the built web', () => {
  it('sends the pre-compressed .br bytes to a client that accepts brotli, and .gz to gzip', async () => {
    const file = path.join(webDist, 'assets/app-Ab12Cd34.js');
    const br = await get('/assets/app-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // The file's own bytes, not compressed again on the way out.
    expect(br.rawPayload.equals(await readFile(`${file}.br`))).toBe(true);

    const gz = await get('/assets/app-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(await readFile(`${file}.gz`))).toBe(true);

    const plain = await get('/assets/app-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(await readFile(file))).toBe(true);
  });

  it("over HTTP, answers a browser's Accept-Encoding (zstd first) with the .br file, and no header with the file itself", async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    /** The raw bytes and headers, undecoded. */
    const fetchRaw = (url: string, acceptEncoding?: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
        httpGet({ host: '127.0.0.1', port, path: url, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        }).on('error', reject);
      });
    const file = path.join(webDist, 'assets/app-Ab12Cd34.js');
    const chrome = await fetchRaw('/assets/app-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(chrome.status).toBe(200);
    expect(chrome.headers['content-encoding']).toBe('br');
    expect(chrome.headers.vary).toMatch(/accept-encoding/i);
    expect(chrome.body.equals(await readFile(`${file}.br`))).toBe(true);
    for (const acceptEncoding of [undefined, 'identity']) {
      const plain = await fetchRaw('/assets/app-Ab12Cd34.js', acceptEncoding);
      expect(plain.headers['content-encoding'], String(acceptEncoding)).toBeUndefined();
      expect(plain.body.equals(await readFile(file)), String(acceptEncoding)).toBe(true);
    }
    const page = await fetchRaw('/', 'gzip, deflate, br, zstd');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.body.equals(await readFile(path.join(webDist, 'index.html.br')))).toBe(true);
  });

  it('caches hashed assets for a year and the page never without asking', async () => {
    for (const asset of ['/assets/app-Ab12Cd34.js', '/assets/app-Ef56Gh78.css', '/assets/tiny-Zz99Yy88.js']) {
      for (const encoding of [undefined, 'br']) {
        const response = await get(asset, encoding);
        expect(response.statusCode, asset).toBe(200);
        expect(response.headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      }
    }
    for (const page of ['/', '/books/some-title', '/account/orders?tab=2', '/index.html']) {
      for (const encoding of [undefined, 'br']) {
        const response = await get(page, encoding);
        expect(response.statusCode, page).toBe(200);
        expect(response.headers['content-type'], page).toMatch(/^text\/html/);
        expect(response.headers['cache-control'], page).toBe('no-cache');
      }
    }
    const icon = await get('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('serves the page compressed too, and files without a copy compressed on the way out', async () => {
    const page = await get('/orders/123', 'br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<div id="root"></div>');
    // Too small for a .br copy at build time (an older build may have none at all).
    await expect(readFile(path.join(webDist, 'assets/tiny-Zz99Yy88.js.br'))).rejects.toThrow();
    const tiny = await get('/assets/tiny-Zz99Yy88.js', 'gzip');
    expect(gunzipSync(tiny.rawPayload).toString()).toBe('export {};');
    expect(tiny.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});

describe('API answers', () => {
  it('compresses tRPC and REST JSON of 1 KB or more as the client asks, and leaves small answers alone', async () => {
    const trpc = await get('/trpc/catalogue.taxonomy.public.categories', 'br');
    expect(trpc.statusCode).toBe(200);
    expect(trpc.headers['content-encoding']).toBe('br');
    const categories = JSON.parse(brotliDecompressSync(trpc.rawPayload).toString()) as {
      result: { data: unknown[] };
    };
    expect(categories.result.data.length).toBeGreaterThan(0);
    expect(trpc.headers['x-request-id']).toBeDefined();

    const rest = await get('/api/v1/openapi.json', 'gzip');
    expect(rest.statusCode).toBe(200);
    expect(rest.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(rest.rawPayload).toString())).toMatchObject({ openapi: expect.any(String) });

    const plain = await get('/trpc/catalogue.taxonomy.public.categories');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(categories);

    const health = await get('/healthz', 'br');
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('still reads the body of a mutation and answers it', async () => {
    await createUser(t.database.handle.db, t.services.identity, 'compressed@example.com');
    const response = await t.app.inject({
      method: 'POST',
      url: '/trpc/account.auth.signIn',
      headers: { ...WEB, 'content-type': 'application/json', 'accept-encoding': 'br' },
      payload: JSON.stringify({ email: 'compressed@example.com', password: TEST_PASSWORD }),
    });
    const body =
      response.headers['content-encoding'] === 'br'
        ? brotliDecompressSync(response.rawPayload)
        : response.rawPayload;
    expect(response.statusCode, body.toString()).toBe(200);
    expect(JSON.parse(body.toString())).toMatchObject({ result: { data: expect.any(Object) } });
    expect(response.headers['set-cookie']).toBeDefined();
  });
});
