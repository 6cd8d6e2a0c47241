/**
 * A local server shaped like EasyPost's API (the endpoints the adapter calls), for tests:
 *   GET  /v2/shipments                 the account's shipments ({ shipments, has_more })
 *   POST /v2/shipments                 { shipment } → a Shipment with rates (repeats the first
 *                                      answer for a repeated Idempotency-Key)
 *   POST /v2/shipments/:id/buy         { rate: { id } } → the Shipment with postage_label,
 *                                      tracking_code, selected_rate and tracker
 *   GET  /files/postage_label/:id.pdf  the label: a real 4×6 inch PDF (no auth, like EasyPost's
 *                                      label links)
 * Every /v2 call needs HTTP Basic auth with the API key as the user; errors are EasyPost's
 * error objects ({ error: { code, message, errors: [{ field, message }] } }). `mode` makes it
 * answer 503 ('down') or never answer ('hang'), as an outage would; `downFor` fails only the
 * paths it matches (a purchase that fails after the shipment was made). `sendTracker` signs and
 * posts a tracker event as EasyPost's webhooks do (X-Hmac-Signature: hmac-sha256-hex=…).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { easyPostSignature } from './easypost.ts';

export interface FakeRate {
  carrier: string;
  service: string;
  /** Pounds, as EasyPost writes them ("3.79"). */
  rate: string;
}

/** What the fake offers for every parcel unless a test changes `rates`. */
export const FAKE_EASYPOST_RATES: FakeRate[] = [
  { carrier: 'RoyalMail', service: 'RoyalMailTracked48', rate: '2.89' },
  { carrier: 'RoyalMail', service: 'RoyalMail1stClass', rate: '1.65' },
  { carrier: 'InPost', service: 'InPostLockerStandard', rate: '2.29' },
  { carrier: 'Evri', service: 'EvriParcelShopNextDay', rate: '2.29' },
  { carrier: 'RoyalMail', service: 'RoyalMailTracked48LocalCollect', rate: '2.29' },
];

interface StoredShipment {
  id: string;
  object: 'Shipment';
  mode: 'test';
  reference: string | null;
  created_at: string;
  to_address: Record<string, unknown>;
  from_address: Record<string, unknown>;
  parcel: Record<string, unknown>;
  options: Record<string, unknown>;
  rates: (FakeRate & { id: string; object: 'Rate'; currency: 'GBP'; shipment_id: string })[];
  selected_rate: StoredShipment['rates'][number] | null;
  postage_label: {
    object: 'PostageLabel';
    label_url: string;
    label_size: '4x6';
    label_file_type: 'application/pdf';
  } | null;
  tracking_code: string | null;
  tracker: { id: string; object: 'Tracker'; tracking_code: string; public_url: string } | null;
  messages: unknown[];
}

export interface FakeEasyPost {
  url: string;
  apiKey: string;
  webhookSecret: string;
  mode: 'ok' | 'down' | 'hang';
  /** Only requests whose path matches answer 503 (e.g. the purchase, after the shipment was made). */
  downFor: RegExp | null;
  rates: FakeRate[];
  readonly shipments: Map<string, StoredShipment>;
  /** Every request, in order: method, path and the Idempotency-Key it carried. */
  readonly requests: { method: string; path: string; idempotencyKey: string | undefined }[];
  /** Signs and posts a tracker event to `url`, as EasyPost's webhook does; answers the status. */
  sendTracker(
    url: string,
    event: { id?: string; description?: string; result: Record<string, unknown> },
    options?: { secret?: string },
  ): Promise<{ status: number; body: string; sent: { body: string; headers: Record<string, string> } }>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function fail(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  errors: { field: string; message: string }[] = [],
) {
  send(res, status, { error: { code, message, errors } });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function labelPdf(shipment: StoredShipment): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([288, 432]);
  const lines = [
    'FAKE EASYPOST LABEL',
    `${shipment.selected_rate?.carrier ?? ''} ${shipment.selected_rate?.service ?? ''}`,
    String(shipment.to_address.name ?? ''),
    String(shipment.to_address.zip ?? ''),
    shipment.tracking_code ?? '',
  ];
  lines.forEach((text, index) => {
    page.drawText(text, { x: 18, y: 400 - index * 20, size: 12, font });
  });
  return document.save({ useObjectStreams: false });
}

export async function startFakeEasyPost(
  options: { apiKey?: string; webhookSecret?: string } = {},
): Promise<FakeEasyPost> {
  const apiKey = options.apiKey ?? 'EZTKfake0123456789';
  const webhookSecret = options.webhookSecret ?? 'fake-easypost-webhook-secret-ü';
  const shipments = new Map<string, StoredShipment>();
  const byIdempotencyKey = new Map<string, string>();
  const requests: FakeEasyPost['requests'] = [];
  const hanging = new Set<ServerResponse>();
  let url = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const key = req.headers['idempotency-key'];
    requests.push({ method: req.method ?? 'GET', path, idempotencyKey: Array.isArray(key) ? key[0] : key });

    const label = /^\/files\/postage_label\/([a-z0-9_]+)\.pdf$/.exec(path);
    if (req.method === 'GET' && label) {
      const shipment = shipments.get(label[1]!);
      if (!shipment?.postage_label)
        return fail(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(Buffer.from(await labelPdf(shipment)));
    }

    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'down' || fake.downFor?.test(path))
      return fail(res, 503, 'SERVICE_UNAVAILABLE', 'EasyPost is temporarily unavailable.');

    const expected = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      return fail(
        res,
        401,
        'APIKEY.INACTIVE',
        'This api key is no longer active. Please use a different api key.',
      );
    }

    if (req.method === 'GET' && path === '/v2/shipments') {
      const list = [...shipments.values()].reverse();
      return send(res, 200, { shipments: list, has_more: false });
    }

    if (req.method === 'POST' && path === '/v2/shipments') {
      const idempotencyKey = Array.isArray(key) ? key[0] : key;
      if (idempotencyKey && byIdempotencyKey.has(idempotencyKey)) {
        return send(res, 201, shipments.get(byIdempotencyKey.get(idempotencyKey)!));
      }
      let body: { shipment?: Record<string, Record<string, unknown> | string | undefined> };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return fail(res, 422, 'PARAMETER.INVALID', 'The request body is not JSON.');
      }
      const input = body.shipment;
      const missing: { field: string; message: string }[] = [];
      for (const side of ['to_address', 'from_address'] as const) {
        const address = input?.[side];
        for (const field of ['name', 'street1', 'city', 'zip', 'country'])
          if (typeof address !== 'object' || !address?.[field])
            missing.push({ field: `shipment.${side}.${field}`, message: 'cannot be blank' });
      }
      const parcel = input?.parcel;
      if (typeof parcel !== 'object' || !(Number(parcel?.weight) > 0))
        missing.push({ field: 'shipment.parcel.weight', message: 'must be greater than 0' });
      if (missing.length) return fail(res, 422, 'PARAMETER.REQUIRED', 'Missing required parameter.', missing);
      const shipmentId = id('shp');
      const shipment: StoredShipment = {
        id: shipmentId,
        object: 'Shipment',
        mode: 'test',
        reference: typeof input?.reference === 'string' ? input.reference : null,
        created_at: new Date().toISOString(),
        to_address: input?.to_address as Record<string, unknown>,
        from_address: input?.from_address as Record<string, unknown>,
        parcel: parcel as Record<string, unknown>,
        options: (input?.options as Record<string, unknown>) ?? {},
        rates: fake.rates.map((rate) => ({
          ...rate,
          id: id('rate'),
          object: 'Rate',
          currency: 'GBP',
          shipment_id: shipmentId,
        })),
        selected_rate: null,
        postage_label: null,
        tracking_code: null,
        tracker: null,
        messages: [],
      };
      shipments.set(shipmentId, shipment);
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, shipmentId);
      return send(res, 201, shipment);
    }

    const buy = /^\/v2\/shipments\/([a-z0-9_]+)\/buy$/.exec(path);
    if (req.method === 'POST' && buy) {
      const shipment = shipments.get(buy[1]!);
      if (!shipment) return fail(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
      if (shipment.postage_label)
        return fail(res, 422, 'SHIPMENT.POSTAGE.EXISTS', 'Shipment already has postage.');
      const body = JSON.parse((await readBody(req)) || '{}') as { rate?: { id?: string } };
      const rate = shipment.rates.find((r) => r.id === body.rate?.id);
      if (!rate)
        return fail(res, 422, 'SHIPMENT.RATE.INVALID', 'Rate not found.', [
          { field: 'rate.id', message: 'is not a rate of this shipment' },
        ]);
      const trackingCode = `EZ${randomBytes(8).toString('hex').toUpperCase()}`;
      shipment.selected_rate = rate;
      shipment.tracking_code = trackingCode;
      shipment.postage_label = {
        object: 'PostageLabel',
        label_url: `${url}/files/postage_label/${shipment.id}.pdf`,
        label_size: '4x6',
        label_file_type: 'application/pdf',
      };
      shipment.tracker = {
        id: id('trk'),
        object: 'Tracker',
        tracking_code: trackingCode,
        public_url: `https://track.easypost.com/fake/${trackingCode}`,
      };
      return send(res, 200, shipment);
    }

    return fail(res, 404, 'NOT_FOUND', 'The requested resource could not be found.');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => fail(res, 500, 'INTERNAL_SERVER_ERROR', String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeEasyPost = {
    url,
    apiKey,
    webhookSecret,
    mode: 'ok',
    downFor: null,
    rates: [...FAKE_EASYPOST_RATES],
    shipments,
    requests,
    async sendTracker(target, event, sendOptions = {}) {
      const body = JSON.stringify({
        id: event.id ?? id('evt'),
        object: 'Event',
        mode: 'test',
        description: event.description ?? 'tracker.updated',
        result: { object: 'Tracker', ...event.result },
        created_at: new Date().toISOString(),
      });
      const headers = {
        'content-type': 'application/json',
        'x-hmac-signature': easyPostSignature(body, sendOptions.secret ?? webhookSecret),
      };
      const response = await fetch(target, { method: 'POST', headers, body });
      return { status: response.status, body: await response.text(), sent: { body, headers } };
    },
    async close() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
