/**
 * The EasyPost adapter against a local server shaped like EasyPost's API (fake-easypost.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LABEL_UNAVAILABLE } from '@reshelf/contracts';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDropOffDirectory } from './drop-off-directory.ts';
import {
  createEasyPostCarrier,
  EASYPOST_STATUS_SCANS,
  easyPostSignature,
  penceFromRate,
} from './easypost.ts';
import { FAKE_EASYPOST_RATES, type FakeEasyPost, startFakeEasyPost } from './fake-easypost.ts';
import { A4_POINTS, THERMAL_POINTS } from './labels.ts';
import {
  type CarrierProvider,
  CarrierSignatureError,
  CarrierUnavailableError,
  type LabelRequest,
} from './port.ts';

let fake: FakeEasyPost;
let carrier: CarrierProvider;
let receiver: Server;
let receiverUrl: string;
const verified: unknown[] = [];
let counter = 0;

function request(overrides: Partial<LabelRequest> = {}): LabelRequest {
  counter += 1;
  return {
    shipmentId: `0b6f1c2a-1111-4c3d-9e8f-${String(counter).padStart(12, '0')}`,
    reference: 'RS-EP001',
    from: {
      fullName: 'Ada Seller',
      line1: '3 Mill Lane',
      line2: null,
      town: 'Banbury',
      postcode: 'OX16 5LW',
    },
    to: {
      fullName: 'Bea Buyer',
      line1: '12 Leith Walk',
      line2: 'Flat 2',
      town: 'Edinburgh',
      postcode: 'EH6 5HX',
    },
    method: 'home',
    network: 'royal_mail',
    dropOffPoint: null,
    band: 'large_letter',
    weightG: 454,
    thicknessMm: 25,
    lengthMm: 254,
    widthMm: 178,
    expectedCostMinor: 289,
    ...overrides,
  };
}

beforeAll(async () => {
  fake = await startFakeEasyPost();
  carrier = createEasyPostCarrier({
    apiKey: fake.apiKey,
    webhookSecret: fake.webhookSecret,
    baseUrl: fake.url,
  });
  // Stands for Reshelf's webhook route: verifies with the adapter, 400 when it does not verify.
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        verified.push(carrier.verifyWebhook(Buffer.concat(chunks).toString('utf8'), req.headers));
        res.writeHead(200).end('ok');
      } catch (error) {
        res.writeHead(error instanceof CarrierSignatureError ? 400 : 500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/carriers/easypost`;
});

afterEach(() => {
  fake.mode = 'ok';
  fake.downFor = null;
  fake.rates = [...FAKE_EASYPOST_RATES];
});

afterAll(async () => {
  await fake?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe('EasyPost labels', () => {
  it('buys a Royal Mail Tracked 48 label end to end: shipment, rate, label PDFs in 4×6 and A4', async () => {
    const input = request();
    const label = await carrier.buyLabel(input);
    const stored = fake.shipments.get(label.providerRef)!;
    expect(stored.reference).toBe(input.shipmentId);
    expect(stored.selected_rate).toMatchObject({ carrier: 'RoyalMail', service: 'RoyalMailTracked48' });
    expect(stored.options).toMatchObject({
      label_format: 'PDF',
      label_size: '4x6',
      print_custom_1: 'RS-EP001',
    });
    // 254 × 178 × 25 mm, 454 g: inches and ounces, rounded up to a tenth.
    expect(stored.parcel).toEqual({ length: 10, width: 7.1, height: 1, weight: 16.1 });
    expect(stored.to_address).toMatchObject({
      name: 'Bea Buyer',
      street2: 'Flat 2',
      zip: 'EH6 5HX',
      country: 'GB',
    });
    expect(label.trackingRef).toBe(stored.tracking_code);
    expect(label.trackingUrl).toBe(stored.tracker?.public_url);
    expect(label.costMinor).toBe(289);
    const create = fake.requests.find((r) => r.method === 'POST' && r.path === '/v2/shipments');
    expect(create?.idempotencyKey).toBe(input.shipmentId);

    const thermal = await PDFDocument.load(label.labels.thermal_4x6);
    expect(thermal.getPage(0).getSize()).toEqual({
      width: THERMAL_POINTS.width,
      height: THERMAL_POINTS.height,
    });
    const a4 = await PDFDocument.load(label.labels.a4);
    expect(a4.getPageCount()).toBe(1);
    expect(a4.getPage(0).getSize().width).toBeCloseTo(A4_POINTS.width, 1);
    expect(a4.getPage(0).getSize().height).toBeCloseTo(A4_POINTS.height, 1);
  });

  it('sends a drop-off parcel by the point’s network, with the point as the carrier option', async () => {
    const point = createDropOffDirectory()
      .nearest('EH6 5HX', 'small_parcel', 10)
      .find((p) => p.network === 'evri')!;
    const label = await carrier.buyLabel(
      request({
        method: 'drop_off',
        network: 'evri',
        dropOffPoint: point,
        band: 'small_parcel',
        expectedCostMinor: 299,
      }),
    );
    const stored = fake.shipments.get(label.providerRef)!;
    expect(stored.selected_rate).toMatchObject({ carrier: 'Evri', service: 'EvriParcelShopNextDay' });
    expect(stored.options).toMatchObject({ pickup_point_id: point.id });
    expect(label.costMinor).toBe(229);
  });

  it('buys once however often it is asked for the same shipment', async () => {
    const input = request();
    const first = await carrier.buyLabel(input);
    const before = fake.requests.length;
    const again = await carrier.buyLabel(input);
    expect(again.trackingRef).toBe(first.trackingRef);
    expect(again.providerRef).toBe(first.providerRef);
    const calls = fake.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(calls).not.toContain('POST /v2/shipments');
    expect(calls.some((call) => call.endsWith('/buy'))).toBe(false);
    expect([...fake.shipments.values()].filter((s) => s.reference === input.shipmentId)).toHaveLength(1);
  });

  it('after a purchase that failed half-way, buys the shipment it already made rather than a second one', async () => {
    const input = request();
    fake.downFor = /\/buy$/;
    await expect(carrier.buyLabel(input)).rejects.toMatchObject({
      message: LABEL_UNAVAILABLE,
      retryable: true,
    });
    const made = [...fake.shipments.values()].filter((s) => s.reference === input.shipmentId);
    expect(made).toHaveLength(1);
    expect(made[0]?.postage_label).toBeNull();
    fake.downFor = null;
    const before = fake.requests.length;
    const label = await carrier.buyLabel(input);
    expect(label.providerRef).toBe(made[0]?.id);
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path}`)).not.toContain(
      'POST /v2/shipments',
    );
    expect([...fake.shipments.values()].filter((s) => s.reference === input.shipmentId)).toHaveLength(1);
  });

  it('refuses a rate dearer than the rate card, without buying it', async () => {
    fake.rates = fake.rates.map((rate) =>
      rate.service === 'RoyalMailTracked48' ? { ...rate, rate: '3.1' } : rate,
    );
    const before = fake.requests.length;
    const refused = await carrier.buyLabel(request()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CarrierUnavailableError);
    expect(refused).toMatchObject({ retryable: false });
    expect((refused as Error).message).toBe(
      "EasyPost's Royal Mail Tracked 48 rate is £3.10, dearer than the £2.89 expected: the label was not bought",
    );
    expect(fake.requests.slice(before).some((r) => r.path.endsWith('/buy'))).toBe(false);
  });

  it('says the carrier is not answering when EasyPost is down (503) or hangs, and may be retried', async () => {
    fake.mode = 'down';
    await expect(carrier.buyLabel(request())).rejects.toMatchObject({
      name: 'CarrierUnavailableError',
      message: LABEL_UNAVAILABLE,
      retryable: true,
    });
    fake.mode = 'hang';
    const impatient = createEasyPostCarrier({
      apiKey: fake.apiKey,
      webhookSecret: fake.webhookSecret,
      baseUrl: fake.url,
      timeoutMs: 300,
    });
    await expect(impatient.buyLabel(request())).rejects.toMatchObject({
      message: LABEL_UNAVAILABLE,
      retryable: true,
    });
    // Nobody listening at all.
    const nowhere = createEasyPostCarrier({
      apiKey: fake.apiKey,
      webhookSecret: 'x'.repeat(20),
      baseUrl: 'http://127.0.0.1:9',
    });
    await expect(nowhere.buyLabel(request())).rejects.toMatchObject({
      message: LABEL_UNAVAILABLE,
      retryable: true,
    });
  });

  it('passes on what EasyPost refused, naming the field, and does not offer a retry', async () => {
    const refused = await carrier
      .buyLabel(request({ to: { ...request().to, postcode: '' } }))
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ retryable: false });
    expect((refused as Error).message).toBe(
      'EasyPost refused the label: Missing required parameter. (shipment.to_address.zip cannot be blank)',
    );
    const wrongKey = createEasyPostCarrier({
      apiKey: 'EZTKwrong',
      webhookSecret: fake.webhookSecret,
      baseUrl: fake.url,
    });
    await expect(wrongKey.buyLabel(request())).rejects.toThrow(/This api key is no longer active/);
  });

  it('reads EasyPost rates as pence', () => {
    expect(penceFromRate('3.79')).toBe(379);
    expect(penceFromRate('3.1')).toBe(310);
    expect(penceFromRate('12')).toBe(1200);
    expect(penceFromRate('0.05')).toBe(5);
    expect(penceFromRate('3.799')).toBeNull();
    expect(penceFromRate('-1')).toBeNull();
  });
});

describe('EasyPost webhooks', () => {
  const tracker = (details: { status: string; datetime: string; message?: string }[]) => ({
    id: 'trk_abc',
    tracking_code: 'EZ1234567890',
    shipment_id: 'shp_abc',
    status: details.at(-1)?.status ?? 'unknown',
    tracking_details: details.map((detail) => ({
      object: 'TrackingDetail',
      message: detail.message ?? detail.status,
      status: detail.status,
      datetime: detail.datetime,
      tracking_location: {
        object: 'TrackingLocation',
        city: 'EDINBURGH',
        state: null,
        country: 'GB',
        zip: 'EH6',
      },
    })),
  });

  it('accepts a tracker event signed with the webhook secret, posted as EasyPost posts it', async () => {
    const answer = await fake.sendTracker(receiverUrl, {
      id: 'evt_1',
      result: tracker([{ status: 'in_transit', datetime: '2026-12-21T09:00:00Z', message: 'Item received' }]),
    });
    expect(answer.status).toBe(200);
    expect(answer.sent.headers['x-hmac-signature']).toMatch(/^hmac-sha256-hex=[0-9a-f]{64}$/);
    expect(verified.at(-1)).toMatchObject({
      eventId: 'evt_1',
      scans: [
        {
          trackingRef: 'EZ1234567890',
          providerRef: 'shp_abc',
          status: 'in_transit',
          occurredAt: new Date('2026-12-21T09:00:00Z'),
          location: 'EDINBURGH EH6',
          description: 'Item received',
        },
      ],
    });
  });

  it('refuses an event with a bad or missing signature', async () => {
    const forged = await fake.sendTracker(
      receiverUrl,
      { result: tracker([]) },
      { secret: 'someone-elses-secret' },
    );
    expect(forged.status).toBe(400);
    const body = forged.sent.body;
    expect(() => carrier.verifyWebhook(body, {})).toThrow(/X-Hmac-Signature header is missing/);
    const good = await fake.sendTracker(receiverUrl, { result: tracker([]) });
    expect(() =>
      carrier.verifyWebhook(good.sent.body.replace('EZ1234567890', 'EZ0000000000'), good.sent.headers),
    ).toThrow(CarrierSignatureError);
  });

  it('normalises the secret (NFKD) as EasyPost does', () => {
    // "é" and "ü" composed in the adapter's secret and decomposed in the signer's sign the same.
    const secret = 'sécret-ü-0123456789';
    expect(secret.normalize('NFD')).not.toBe(secret);
    const composed = createEasyPostCarrier({ apiKey: 'EZTKx', webhookSecret: secret, baseUrl: fake.url });
    const body = JSON.stringify({ id: 'evt_n', description: 'tracker.updated', result: tracker([]) });
    const headers = { 'x-hmac-signature': easyPostSignature(body, secret.normalize('NFD')) };
    expect(composed.verifyWebhook(body, headers).eventId).toBe('evt_n');
  });

  it('maps each EasyPost status to a scan, with ids that stay the same across updates', async () => {
    const history = [
      { status: 'pre_transit', datetime: '2026-12-21T08:00:00Z' },
      { status: 'in_transit', datetime: '2026-12-21T09:00:00Z' },
      { status: 'out_for_delivery', datetime: '2026-12-22T07:00:00Z' },
      { status: 'failure', datetime: '2026-12-22T12:00:00Z' },
      { status: 'available_for_pickup', datetime: '2026-12-22T15:00:00Z' },
      { status: 'delivered', datetime: '2026-12-23T10:00:00Z' },
      { status: 'return_to_sender', datetime: '2026-12-28T10:00:00Z' },
      { status: 'unknown', datetime: '2026-12-29T10:00:00Z' },
    ];
    const first = await fake.sendTracker(receiverUrl, { id: 'evt_a', result: tracker(history.slice(0, 3)) });
    const second = await fake.sendTracker(receiverUrl, { id: 'evt_b', result: tracker(history) });
    expect([first.status, second.status]).toEqual([200, 200]);
    const [a, b] = verified.slice(-2) as { scans: { eventId: string; status: string }[] }[];
    expect(b?.scans.map((scan) => scan.status)).toEqual([
      'in_transit',
      'out_for_delivery',
      'delivery_failed',
      'delivered',
      'delivered',
      'returned_to_sender',
    ]);
    // The two details both events carry have the same ids: recorded once.
    expect(b?.scans.slice(0, 2).map((scan) => scan.eventId)).toEqual(a?.scans.map((scan) => scan.eventId));
    expect(new Set(b?.scans.map((scan) => scan.eventId)).size).toBe(6);
    expect(EASYPOST_STATUS_SCANS.pre_transit).toBeNull();
  });

  it('answers no scans for an event that is not about a tracker', async () => {
    const answer = await fake.sendTracker(receiverUrl, {
      id: 'evt_batch',
      description: 'batch.created',
      result: {},
    });
    expect(answer.status).toBe(200);
    expect(verified.at(-1)).toMatchObject({ eventId: 'evt_batch', scans: [] });
  });
});
