import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/app.ts';

const SITE = 'https://reshelf.example';

let withSite: TestApp;
let withoutSite: TestApp;

beforeAll(async () => {
  [withSite, withoutSite] = await Promise.all([
    createTestApp({ env: { PUBLIC_ORIGIN: `${SITE}/` }, referenceData: false }),
    createTestApp({ referenceData: false }),
  ]);
});

afterAll(async () => {
  await Promise.all([withSite?.close(), withoutSite?.close()]);
});

function preflight(t: TestApp, origin: string) {
  return request(t.app.server)
    .options('/trpc/catalogue.taxonomy.public.categories')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'x-reshelf-client, authorization, content-type');
}

function list(header: string | undefined): string[] {
  return (header ?? '').split(/,\s*/).filter(Boolean);
}

describe('CORS', () => {
  it.each(['capacitor://localhost', 'https://localhost', SITE])(
    'admits %s, with credentials',
    async (origin) => {
      const response = await request(withSite.app.server).get('/healthz').set('Origin', origin);
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(response.headers.vary).toMatch(/origin/i);
    },
  );

  it('answers an admitted preflight with the allowed headers and methods', async () => {
    const response = await preflight(withSite, 'capacitor://localhost');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(list(response.headers['access-control-allow-headers'])).toEqual([
      'x-reshelf-client',
      'authorization',
      'content-type',
      'last-event-id',
    ]);
    expect(list(response.headers['access-control-allow-methods'])).toEqual(['GET', 'HEAD', 'POST']);
    expect(response.headers['access-control-max-age']).toBe('600');
  });

  it('puts the headers on tRPC answers too', async () => {
    const response = await request(withSite.app.server)
      .get('/trpc/catalogue.taxonomy.public.categories')
      .set('Origin', 'https://localhost')
      .set('Authorization', 'Bearer not-checked-yet');
    expect(response.headers['access-control-allow-origin']).toBe('https://localhost');
    expect(list(response.headers['access-control-expose-headers'])).toEqual([
      'x-request-id',
      'www-authenticate',
    ]);
  });

  it.each([
    'https://evil.example',
    'http://localhost',
    'capacitor://evil',
    'https://localhost:8443',
    'http://reshelf.example',
    'https://reshelf.example.evil.example',
    'null',
  ])('refuses %s', async (origin) => {
    const simple = await request(withSite.app.server).get('/healthz').set('Origin', origin);
    expect(simple.status).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    expect(simple.headers['access-control-allow-credentials']).toBeUndefined();

    const pre = await preflight(withSite, origin);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('admits only the app when no public origin is configured', async () => {
    const app = await request(withoutSite.app.server).get('/healthz').set('Origin', 'capacitor://localhost');
    expect(app.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    const site = await request(withoutSite.app.server).get('/healthz').set('Origin', SITE);
    expect(site.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('adds nothing to a request without an Origin (same-origin pages, servers)', async () => {
    const response = await request(withSite.app.server).get('/healthz');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
