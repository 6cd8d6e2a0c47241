/**
 * The EasyPost adapter (decision 0084): Royal Mail, Evri and InPost through one API, with plain
 * `fetch` and HTTP Basic auth (the API key as the user name), no SDK.
 *
 * Buying a label:
 *  1. Look for a shipment already made for this Reshelf shipment (its `reference` is our shipment
 *     id) among the account's recent shipments, so a retry after a lost answer never buys twice;
 *     the create call also carries `Idempotency-Key: <shipment id>` (belt and braces: see 0084).
 *  2. Create the shipment (addresses, the parcel in inches and ounces, `options.label_format`
 *     PDF at `label_size` 4x6, the drop-off point as the carrier option), choose the rate of the
 *     service for the network and method (EASYPOST_SERVICES), refuse one dearer than the rate
 *     card expects, and buy it.
 *  3. Fetch the 4×6 PDF from `postage_label.label_url`; the A4 form places it on an A4 page.
 * Network errors, timeouts (10 s), 429 and 5xx: CarrierUnavailableError (retryable, the
 * LABEL_UNAVAILABLE text). Any other 4xx: a non-retryable CarrierUnavailableError naming what
 * EasyPost said was wrong (its error object's message and fields).
 *
 * Webhooks: `X-Hmac-Signature: hmac-sha256-hex=<hex>`, the HMAC-SHA256 of the raw body under the
 * webhook secret (NFKD-normalised, as EasyPost's client libraries compute it), compared in
 * constant time. A `tracker.updated`/`tracker.created` event's `tracking_details` become scans,
 * each with an id stable across events (tracker id, the detail's time and status), since every
 * update repeats the parcel's whole history.
 *
 * EasyPost has no drop-off point search: points come from the local directory.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  CARRIER_NETWORK_LABELS,
  type CarrierNetwork,
  type DeliveryMethod,
  formatPence,
  LABEL_UNAVAILABLE,
  type ScanStatus,
} from '@reshelf/contracts';
import { z } from 'zod';
import { createDropOffDirectory, type DropOffDirectory } from './drop-off-directory.ts';
import { a4FromThermal } from './labels.ts';
import {
  type BoughtLabel,
  type CarrierProvider,
  type CarrierScan,
  CarrierSignatureError,
  CarrierUnavailableError,
  type LabelAddress,
  type LabelRequest,
  type VerifiedWebhook,
} from './port.ts';

export const EASYPOST_NAME = 'easypost';
export const EASYPOST_SIGNATURE_HEADER = 'x-hmac-signature';
export const EASYPOST_TIMEOUT_MS = 10_000;

/**
 * The EasyPost carrier and service for each way a parcel goes. The names are EasyPost's carrier
 * and service identifiers as an account lists them (check them against the account's carrier
 * accounts when it is set up: decision 0084).
 */
export const EASYPOST_SERVICES: Record<
  DeliveryMethod,
  Partial<Record<CarrierNetwork, { carrier: string; service: string; label: string }>>
> = {
  home: {
    royal_mail: { carrier: 'RoyalMail', service: 'RoyalMailTracked48', label: 'Royal Mail Tracked 48' },
  },
  drop_off: {
    inpost: { carrier: 'InPost', service: 'InPostLockerStandard', label: 'InPost to a locker' },
    evri: { carrier: 'Evri', service: 'EvriParcelShopNextDay', label: 'Evri to a ParcelShop' },
    royal_mail: {
      carrier: 'RoyalMail',
      service: 'RoyalMailTracked48LocalCollect',
      label: 'Royal Mail Local Collect',
    },
  },
};

/** EasyPost's tracker statuses, and the scan each one is (none: not a scan of a parcel on its way). */
export const EASYPOST_STATUS_SCANS: Record<string, ScanStatus | null> = {
  unknown: null,
  pre_transit: null,
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  // At the locker or parcel shop the buyer chose: delivered to the point.
  available_for_pickup: 'delivered',
  delivered: 'delivered',
  failure: 'delivery_failed',
  return_to_sender: 'returned_to_sender',
  cancelled: null,
  error: null,
};

export interface EasyPostOptions {
  apiKey: string;
  webhookSecret: string;
  baseUrl: string;
  directory?: DropOffDirectory;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

const rateSchema = z.object({
  id: z.string(),
  carrier: z.string(),
  service: z.string(),
  rate: z.string(),
  currency: z.string(),
});
const shipmentSchema = z.object({
  id: z.string(),
  reference: z.string().nullish(),
  rates: z.array(rateSchema).default([]),
  tracking_code: z.string().nullish(),
  postage_label: z.object({ label_url: z.string() }).nullish(),
  selected_rate: rateSchema.nullish(),
  tracker: z.object({ id: z.string(), public_url: z.string().nullish() }).nullish(),
});
type EasyPostShipment = z.infer<typeof shipmentSchema>;

const errorSchema = z.object({
  error: z.object({
    code: z.string().optional(),
    message: z.string().optional(),
    errors: z
      .array(
        z.union([z.object({ field: z.string().optional(), message: z.string().optional() }), z.string()]),
      )
      .optional(),
  }),
});

const trackingDetailSchema = z.object({
  status: z.string(),
  message: z.string().nullish(),
  datetime: z.string(),
  tracking_location: z
    .object({ city: z.string().nullish(), state: z.string().nullish(), zip: z.string().nullish() })
    .nullish(),
});
const eventSchema = z.object({
  id: z.string().min(1).max(100),
  description: z.string(),
  result: z.unknown(),
});
const trackerSchema = z.object({
  id: z.string().min(1).max(100),
  tracking_code: z.string().min(1).max(60),
  shipment_id: z.string().max(100).nullish(),
  tracking_details: z.array(trackingDetailSchema).default([]),
});

/** "3.79" (pounds, as EasyPost writes a rate) as whole pence, or null when it is no such figure. */
export function penceFromRate(rate: string): number | null {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(rate.trim());
  if (!match) return null;
  return Number(`${match[1]}${(match[2] ?? '').padEnd(2, '0')}`);
}

/** Millimetres as inches, and grams as ounces, rounded up to a tenth (EasyPost's parcel units). */
const inches = (mm: number) => Math.ceil((mm / 25.4) * 10) / 10;
const ounces = (grams: number) => Math.ceil((grams / 28.349523125) * 10) / 10;

function easyPostAddress(address: LabelAddress) {
  return {
    name: address.fullName,
    street1: address.line1,
    ...(address.line2 ? { street2: address.line2 } : {}),
    city: address.town,
    zip: address.postcode,
    country: 'GB',
  };
}

/** Base64 of "<api key>:" for HTTP Basic auth. */
const basic = (apiKey: string) => `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;

export function easyPostSignature(body: string, secret: string): string {
  return `hmac-sha256-hex=${createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8'))
    .update(body, 'utf8')
    .digest('hex')}`;
}

export function createEasyPostCarrier(options: EasyPostOptions): CarrierProvider {
  const directory = options.directory ?? createDropOffDirectory();
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? EASYPOST_TIMEOUT_MS;

  /** One call to EasyPost: its JSON, or the error the caller should see. */
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: basic(options.apiKey),
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      // Refused, reset, or no answer in time.
      throw new CarrierUnavailableError(LABEL_UNAVAILABLE);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 429 || response.status >= 500)
      throw new CarrierUnavailableError(LABEL_UNAVAILABLE);
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) throw refusal(response.status, json);
    return json;
  }

  /** A 4xx: what EasyPost said was wrong, with the fields it named. */
  function refusal(status: number, json: unknown): CarrierUnavailableError {
    const parsed = errorSchema.safeParse(json);
    if (!parsed.success)
      return new CarrierUnavailableError(`EasyPost refused the label (HTTP ${status})`, false);
    const { message, code, errors } = parsed.data.error;
    const fields = (errors ?? [])
      .map((entry) =>
        typeof entry === 'string' ? entry : [entry.field, entry.message].filter(Boolean).join(' '),
      )
      .filter(Boolean);
    return new CarrierUnavailableError(
      `EasyPost refused the label: ${message ?? code ?? `HTTP ${status}`}${fields.length ? ` (${fields.join('; ')})` : ''}`,
      false,
    );
  }

  async function existing(shipmentId: string): Promise<EasyPostShipment | null> {
    const since = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    const query = new URLSearchParams({ page_size: '100', start_datetime: since });
    const json = (await call('GET', `/v2/shipments?${query}`)) as { shipments?: unknown[] } | null;
    for (const entry of json?.shipments ?? []) {
      const shipment = shipmentSchema.safeParse(entry);
      if (shipment.success && shipment.data.reference === shipmentId) return shipment.data;
    }
    return null;
  }

  async function labelPdf(url: string): Promise<Uint8Array> {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new CarrierUnavailableError(LABEL_UNAVAILABLE);
    }
    if (!response.ok) throw new CarrierUnavailableError(LABEL_UNAVAILABLE);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') {
      throw new CarrierUnavailableError('EasyPost answered a label that is not a PDF', false);
    }
    return bytes;
  }

  return {
    name: EASYPOST_NAME,

    async dropOffPoints(postcode, band, limit) {
      return directory.nearest(postcode, band, limit);
    },

    async dropOffPoint(id) {
      return directory.byId(id);
    },

    async buyLabel(request: LabelRequest): Promise<BoughtLabel> {
      const wanted = EASYPOST_SERVICES[request.method][request.network];
      if (!wanted) {
        throw new CarrierUnavailableError(
          `EasyPost has no ${CARRIER_NETWORK_LABELS[request.network]} service for ${request.method === 'home' ? 'home delivery' : 'a drop-off point'}`,
          false,
        );
      }
      let shipment = await existing(request.shipmentId);
      if (!shipment) {
        const created = await call(
          'POST',
          '/v2/shipments',
          {
            shipment: {
              reference: request.shipmentId,
              from_address: easyPostAddress(request.from),
              to_address: easyPostAddress(request.to),
              parcel: {
                length: inches(request.lengthMm),
                width: inches(request.widthMm),
                height: inches(request.thicknessMm),
                weight: ounces(request.weightG),
              },
              options: {
                label_format: 'PDF',
                label_size: '4x6',
                print_custom_1: request.reference,
                ...(request.dropOffPoint ? { pickup_point_id: request.dropOffPoint.id } : {}),
              },
            },
          },
          { 'idempotency-key': request.shipmentId },
        );
        shipment = shipmentSchema.parse(created);
      }

      if (!shipment.postage_label) {
        const rate = shipment.rates.find((r) => r.carrier === wanted.carrier && r.service === wanted.service);
        if (!rate) {
          throw new CarrierUnavailableError(
            `EasyPost offered no ${wanted.label} rate for this parcel`,
            false,
          );
        }
        const pence = rate.currency === 'GBP' ? penceFromRate(rate.rate) : null;
        if (pence === null) {
          throw new CarrierUnavailableError(
            `EasyPost's ${wanted.label} rate is ${rate.rate} ${rate.currency}, not a price in pounds`,
            false,
          );
        }
        if (pence > request.expectedCostMinor) {
          throw new CarrierUnavailableError(
            `EasyPost's ${wanted.label} rate is ${formatPence(pence)}, dearer than the ${formatPence(request.expectedCostMinor)} expected: the label was not bought`,
            false,
          );
        }
        shipment = shipmentSchema.parse(
          await call('POST', `/v2/shipments/${encodeURIComponent(shipment.id)}/buy`, {
            rate: { id: rate.id },
          }),
        );
      }

      const label = shipment.postage_label;
      const selected = shipment.selected_rate;
      const costMinor = selected && selected.currency === 'GBP' ? penceFromRate(selected.rate) : null;
      if (!label || !shipment.tracking_code || costMinor === null) {
        throw new CarrierUnavailableError(
          'EasyPost bought the label but did not answer its tracking number',
          true,
        );
      }
      const thermal = await labelPdf(label.label_url);
      return {
        providerRef: shipment.id,
        trackingRef: shipment.tracking_code,
        trackingUrl:
          shipment.tracker?.public_url ??
          `https://track.easypost.com/${encodeURIComponent(shipment.tracking_code)}`,
        // Printed at the counter from the tracking number (the carriers' printer-free drop-off).
        qrCode: shipment.tracking_code,
        costMinor,
        labels: { a4: await a4FromThermal(thermal), thermal_4x6: thermal },
      };
    },

    verifyWebhook(rawBody, headers): VerifiedWebhook {
      const header = headers[EASYPOST_SIGNATURE_HEADER];
      const given = Array.isArray(header) ? header[0] : header;
      if (!given) throw new CarrierSignatureError('The X-Hmac-Signature header is missing');
      const expected = Buffer.from(easyPostSignature(rawBody, options.webhookSecret), 'utf8');
      const received = Buffer.from(given, 'utf8');
      if (expected.length !== received.length || !timingSafeEqual(expected, received)) {
        throw new CarrierSignatureError();
      }
      let payload: unknown;
      try {
        payload = JSON.parse(rawBody);
      } catch {
        throw new CarrierSignatureError('The EasyPost webhook body is not JSON');
      }
      const event = eventSchema.safeParse(payload);
      if (!event.success) throw new CarrierSignatureError('The EasyPost webhook is not an event');
      if (!/^tracker\.(created|updated)$/.test(event.data.description)) {
        return { eventId: event.data.id, scans: [], payload };
      }
      const tracker = trackerSchema.safeParse(event.data.result);
      if (!tracker.success) throw new CarrierSignatureError('The EasyPost tracker event has no tracker');
      const scans: CarrierScan[] = [];
      for (const detail of tracker.data.tracking_details) {
        const status = EASYPOST_STATUS_SCANS[detail.status];
        const occurredAt = new Date(detail.datetime);
        if (!status || Number.isNaN(occurredAt.getTime())) continue;
        const where = detail.tracking_location;
        const location = [where?.city, where?.zip].filter(Boolean).join(' ') || null;
        scans.push({
          eventId: `${tracker.data.id}:${occurredAt.toISOString()}:${detail.status}`.slice(0, 200),
          trackingRef: tracker.data.tracking_code,
          providerRef: tracker.data.shipment_id ?? null,
          status,
          occurredAt,
          location: location?.slice(0, 200) ?? null,
          description: (detail.message ?? detail.status).slice(0, 500),
        });
      }
      return { eventId: event.data.id, scans, payload };
    },
  };
}
