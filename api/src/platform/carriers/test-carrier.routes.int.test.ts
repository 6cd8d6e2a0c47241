/**
 * The test carrier's scan page (issue 37): it lists the test carrier's parcels, and each button
 * sends a signed scan OVER HTTP to the app's carrier webhook. The webhook route itself belongs to
 * the shipments work; here a tiny Fastify app stands for it: the scan page's routes plus a route
 * at /webhooks/carriers/test that verifies and keeps what was posted.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { paidOrder } from '../../testing/orders.ts';
import { type CarrierScan, CarrierSignatureError } from './port.ts';
import { registerTestCarrierRoutes } from './test-carrier.routes.ts';
import { TEST_CARRIER_SIGNATURE_HEADER, type TestCarrier, testTrackingRef } from './test-carrier.ts';

let t: TestApp;
let mini: FastifyInstance;
let base: string;
let carrier: TestCarrier;
const received: { userAgent: string | undefined; scans: CarrierScan[]; signature: string | undefined }[] = [];
let trackingRef: string;
let reference: string;
let shipmentId: string;

beforeAll(async () => {
  t = await createTestApp();
  carrier = t.services.carriers as TestCarrier;
  const order = await paidOrder(t, 1200, 'Scanned book');
  reference = order.reference;
  const db = t.database.handle.db;
  shipmentId = randomUUID();
  trackingRef = testTrackingRef('royal_mail', shipmentId);
  await db
    .insertInto('shipments')
    .values({
      id: shipmentId,
      tracking_ref: trackingRef,
      provider_ref: `tc_${shipmentId}`,
      order_id: order.orderId,
      direction: 'outbound',
      provider: 'test',
      network: 'royal_mail',
      method: 'home',
      band: 'large_letter',
      weight_g: 400,
      thickness_mm: 20,
      cost_minor: 289,
      paid_by: 'buyer',
      status: 'label_ready',
      bought_at: new Date(),
    })
    .execute();

  mini = Fastify();
  await registerTestCarrierRoutes(mini, { db: t.database.appHandle.db, carriers: carrier });
  await mini.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post('/webhooks/carriers/test', async (request, reply) => {
      try {
        const webhook = carrier.verifyWebhook(String(request.body), request.headers);
        received.push({
          userAgent: request.headers['user-agent'],
          scans: webhook.scans,
          signature: request.headers[TEST_CARRIER_SIGNATURE_HEADER] as string | undefined,
        });
        return reply.send({ received: true, outcome: 'applied' });
      } catch (error) {
        if (error instanceof CarrierSignatureError) return reply.code(400).send({ message: error.message });
        throw error;
      }
    });
  });
  await mini.listen({ host: '127.0.0.1', port: 0 });
  const address = mini.server.address();
  if (!address || typeof address !== 'object') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await mini?.close();
  await t?.close();
});

describe('the test carrier scan page', () => {
  it('lists the test carrier’s parcels with a button for each of the six scans', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test-carrier' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const section = response.body.slice(response.body.indexOf(`data-tracking-ref="${trackingRef}"`));
    expect(section).toContain(reference);
    expect(section).toContain('Label ready');
    for (const label of [
      'Accepted',
      'In transit',
      'Out for delivery',
      'Delivered',
      'Delivery failed',
      'Returned to sender',
    ])
      expect(section).toContain(`>${label}</button>`);
    expect(response.body).toContain(`href="/test-carrier/track/${trackingRef}"`);
  });

  it('posts a signed scan over HTTP to the webhook when a button is pressed, then goes back to the page', async () => {
    const before = received.length;
    const response = await fetch(`${base}/test-carrier/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ trackingRef, status: 'accepted' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/test-carrier?sent=accepted&trackingRef=${trackingRef}&answer=200`,
    );
    expect(received).toHaveLength(before + 1);
    const delivery = received.at(-1)!;
    // A real HTTP request (fetch), not an in-process injection.
    expect(delivery.userAgent).not.toBe('lightMyRequest');
    expect(delivery.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery.scans).toEqual([
      expect.objectContaining({ trackingRef, providerRef: `tc_${shipmentId}`, status: 'accepted' }),
    ]);
    const page = await fetch(`${base}${response.headers.get('location')}`);
    expect(await page.text()).toContain('the webhook answered 200');
  });

  it('answers the JSON form with the webhook’s answer, at the time given', async () => {
    const response = await fetch(`${base}/test-carrier/scan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trackingRef, status: 'delivered', occurredAt: '2026-12-22T10:30:00Z' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { webhookStatus: number; webhook: unknown };
    expect(body.webhookStatus).toBe(200);
    expect(body.webhook).toEqual({ received: true, outcome: 'applied' });
    expect(received.at(-1)?.scans[0]).toMatchObject({
      status: 'delivered',
      occurredAt: new Date('2026-12-22T10:30:00Z'),
    });
  });

  it('refuses a scan that names no parcel or no known status, saying what is wrong', async () => {
    for (const [body, message] of [
      [{ status: 'accepted' }, /tracking number/],
      [{ trackingRef, status: 'lost_in_space' }, /one of: accepted, in_transit/],
      [{ trackingRef, status: 'accepted', occurredAt: 'yesterday' }, /ISO date/],
    ] as const) {
      const response = await t.app.inject({ method: 'POST', url: '/test-carrier/scan', payload: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('shows a parcel’s scans on its tracking page, and 404 for an unknown one', async () => {
    await t.database.handle.db
      .insertInto('shipment_scans')
      .values({
        shipment_id: shipmentId,
        provider: 'test',
        event_id: 'tcevt_page',
        status: 'in_transit',
        occurred_at: new Date('2026-12-21T18:00:00Z'),
        location: 'National sorting hub',
        description: 'On its way',
      })
      .execute();
    const response = await t.app.inject({ method: 'GET', url: `/test-carrier/track/${trackingRef}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`Tracking ${trackingRef}`);
    expect(response.body).toContain('National sorting hub');
    expect(response.body).toContain('21 Dec 2026, 18:00');
    const missing = await t.app.inject({ method: 'GET', url: '/test-carrier/track/XX000000000GB' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('with EasyPost as the carrier', () => {
  let hosted: TestApp;
  beforeAll(async () => {
    hosted = await createTestApp({
      env: {
        CARRIERS: 'easypost',
        EASYPOST_API_KEY: 'EZTKunused0123',
        EASYPOST_WEBHOOK_SECRET: 'unused-webhook-secret',
      },
    });
  });
  afterAll(async () => hosted?.close());

  it('has no test carrier pages at all', async () => {
    for (const [method, url] of [
      ['GET', '/test-carrier'],
      ['POST', '/test-carrier/scan'],
      ['GET', '/test-carrier/track/AB123456789GB'],
    ] as const) {
      expect((await hosted.app.inject({ method, url })).statusCode, url).toBe(404);
    }
  });
});
