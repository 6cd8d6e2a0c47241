/**
 * The embedded test carrier (issue 37, decision 0083): the carrier port without a network.
 *
 * - Drop-off points come from the local directory (drop-off-directory.ts).
 * - `buyLabel` answers at once with a tracking number shaped like the network's (Royal Mail
 *   "AB123456789GB" with its S10 check digit, InPost 24 digits, Evri 16 characters starting
 *   "H"), derived from the shipment id, so a retry answers the same label (the shipment id is the
 *   idempotency key); real A4 and 4×6 PDFs with a Code 128 barcode and the drop-off QR code; and
 *   a tracking page of its own, `/test-carrier/track/<trackingRef>`, served by this app.
 * - An outage, for tests and demos: built with `failLabels` (TEST_CARRIER_FAIL_LABELS=1), or a
 *   label with any address at TEST_CARRIER_OUTAGE_POSTCODE ("ZZ99 9ZZ"), throws
 *   CarrierUnavailableError with LABEL_UNAVAILABLE.
 * - Its scans are posted by the scan page (`/test-carrier`, test-carrier.routes.ts) as signed
 *   webhooks to /webhooks/carriers/test: HMAC-SHA256 in hex over "<timestamp>.<body>" with the
 *   'carrier-webhook' key derived from the app secret, in the x-reshelf-carrier-signature
 *   header ("t=<unix seconds>,v1=<hex>"); a timestamp more than 5 minutes away is refused.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { CarrierNetwork, ScanStatus } from '@reshelf/contracts';
import {
  LABEL_UNAVAILABLE,
  normalisePostcode,
  SCAN_STATUSES,
  SHIPMENT_STATUS_TEXT,
} from '@reshelf/contracts';
import { z } from 'zod';
import type { Secrets } from '../../secrets.ts';
import { createDropOffDirectory, type DropOffDirectory } from './drop-off-directory.ts';
import { a4Label, type LabelContent, thermalLabel } from './labels.ts';
import {
  type BoughtLabel,
  type CarrierProvider,
  type CarrierScan,
  CarrierSignatureError,
  CarrierUnavailableError,
  type LabelRequest,
  type VerifiedWebhook,
} from './port.ts';

export const TEST_CARRIER_NAME = 'test';
export const TEST_CARRIER_SIGNATURE_HEADER = 'x-reshelf-carrier-signature';
export const TEST_CARRIER_TOLERANCE_SECONDS = 300;
/** A label with an address at this postcode fails as if the carrier were down. */
export const TEST_CARRIER_OUTAGE_POSTCODE = 'ZZ99 9ZZ';
/** The test carrier's own tracking page for a parcel, on this app. */
export const TEST_CARRIER_TRACK_PATH = '/test-carrier/track';
export const TEST_CARRIER_ISSUER = 'Reshelf test carrier (not a real label)';

const ref = z.string().trim().min(1).max(100);

/** The body of a scan webhook, as the scan page posts it. */
export const testCarrierEventSchema = z.object({
  id: ref,
  type: z.literal('scan'),
  created: z.number().int(),
  data: z.object({
    trackingRef: ref,
    providerRef: ref.nullable(),
    status: z.enum(SCAN_STATUSES),
    occurredAt: z.iso.datetime({ offset: true }),
    location: z.string().max(200).nullable(),
    description: z.string().max(500),
  }),
});
export type TestCarrierEvent = z.infer<typeof testCarrierEventSchema>;

export interface SignedCarrierEvent {
  body: string;
  headers: Record<string, string>;
}

export interface TestCarrier extends CarrierProvider {
  readonly kind: 'test';
  readonly directory: DropOffDirectory;
  /** The signed webhook for one scan of a parcel (the scan page posts it). */
  signedScan(scan: {
    trackingRef: string;
    providerRef: string | null;
    status: ScanStatus;
    occurredAt?: Date;
    location?: string | null;
  }): SignedCarrierEvent;
  /** Signs any body as the test carrier does (tests sign bad bodies with it). */
  sign(body: string, timestamp?: number): SignedCarrierEvent;
}

export interface TestCarrierOptions {
  secrets: Secrets;
  /** Where the app is served: the tracking page's origin. */
  siteOrigin: string;
  /** Every label purchase fails as an outage would. */
  failLabels?: boolean;
  directory?: DropOffDirectory;
}

/** A number from the shipment id's hash, as `length` decimal digits. */
function digitsFrom(seed: string, salt: string, length: number): string {
  const hash = createHash('sha256').update(`${salt}:${seed}`).digest();
  let digits = '';
  for (const byte of hash) {
    digits += String(byte % 10);
    if (digits.length === length) break;
  }
  return digits;
}

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const ALPHANUMERIC = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** The UPU S10 check digit Royal Mail's tracked numbers end with before "GB". */
export function s10CheckDigit(serial: string): number {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...serial].reduce((total, digit, index) => total + Number(digit) * (weights[index] ?? 0), 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** A tracking number shaped like the network's, the same for the same shipment. */
export function testTrackingRef(network: CarrierNetwork, shipmentId: string): string {
  const hash = createHash('sha256').update(`tracking:${network}:${shipmentId}`).digest();
  switch (network) {
    case 'royal_mail': {
      const serial = digitsFrom(shipmentId, 'royal_mail', 8);
      const prefix = `${LETTERS[hash[0]! % LETTERS.length]}${LETTERS[hash[1]! % LETTERS.length]}`;
      return `${prefix}${serial}${s10CheckDigit(serial)}GB`;
    }
    case 'inpost':
      return digitsFrom(shipmentId, 'inpost', 24);
    case 'evri': {
      let rest = '';
      for (let index = 0; rest.length < 15; index++) rest += ALPHANUMERIC[hash[index]! % ALPHANUMERIC.length];
      return `H${rest}`;
    }
  }
}

export function createTestCarrier(options: TestCarrierOptions): TestCarrier {
  const directory = options.directory ?? createDropOffDirectory();
  const key = options.secrets.key('carrier-webhook');
  const hmac = (timestamp: number, body: string) =>
    createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex');
  const sign = (body: string, timestamp = Math.floor(Date.now() / 1000)): SignedCarrierEvent => ({
    body,
    headers: {
      'content-type': 'application/json',
      [TEST_CARRIER_SIGNATURE_HEADER]: `t=${timestamp},v1=${hmac(timestamp, body)}`,
    },
  });
  const site = new URL(options.siteOrigin).origin;
  const outage = (request: LabelRequest) =>
    options.failLabels === true ||
    [request.from.postcode, request.to.postcode, request.dropOffPoint?.postcode ?? ''].some(
      (postcode) => normalisePostcode(postcode) === TEST_CARRIER_OUTAGE_POSTCODE,
    );

  return {
    kind: 'test',
    name: TEST_CARRIER_NAME,
    directory,

    async dropOffPoints(postcode, band, limit) {
      return directory.nearest(postcode, band, limit);
    },

    async dropOffPoint(id) {
      return directory.byId(id);
    },

    async buyLabel(request): Promise<BoughtLabel> {
      if (outage(request)) throw new CarrierUnavailableError(LABEL_UNAVAILABLE);
      const trackingRef = testTrackingRef(request.network, request.shipmentId);
      const qrCode = `RESHELF-TEST-CARRIER:${trackingRef}:${request.reference}`;
      const content: LabelContent = {
        trackingRef,
        reference: request.reference,
        network: request.network,
        method: request.method,
        band: request.band,
        weightG: request.weightG,
        from: request.from,
        to: request.to,
        dropOffPoint: request.dropOffPoint,
        qrCode,
        issuer: TEST_CARRIER_ISSUER,
      };
      const [a4, thermal] = await Promise.all([a4Label(content), thermalLabel(content)]);
      return {
        providerRef: `tc_${request.shipmentId}`,
        trackingRef,
        trackingUrl: `${site}${TEST_CARRIER_TRACK_PATH}/${encodeURIComponent(trackingRef)}`,
        qrCode,
        // The test carrier charges the rate card: what Reshelf expected to pay.
        costMinor: request.expectedCostMinor,
        labels: { a4, thermal_4x6: thermal },
      };
    },

    signedScan(scan) {
      const event: TestCarrierEvent = {
        id: `tcevt_${randomUUID()}`,
        type: 'scan',
        created: Math.floor(Date.now() / 1000),
        data: {
          trackingRef: scan.trackingRef,
          providerRef: scan.providerRef,
          status: scan.status,
          occurredAt: (scan.occurredAt ?? new Date()).toISOString(),
          location: scan.location ?? null,
          description: SHIPMENT_STATUS_TEXT[scan.status],
        },
      };
      return sign(JSON.stringify(event));
    },

    sign,

    verifyWebhook(rawBody, headers): VerifiedWebhook {
      const header = headers[TEST_CARRIER_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      const match = value ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(value) : null;
      if (!match)
        throw new CarrierSignatureError(
          `The ${TEST_CARRIER_SIGNATURE_HEADER} header is missing or malformed`,
        );
      const timestamp = Number(match[1]);
      if (Math.abs(Date.now() / 1000 - timestamp) > TEST_CARRIER_TOLERANCE_SECONDS) {
        throw new CarrierSignatureError(
          'The carrier webhook is too old (or from the future): over 5 minutes',
        );
      }
      const expected = Buffer.from(hmac(timestamp, rawBody), 'hex');
      const given = Buffer.from(match[2]!, 'hex');
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        throw new CarrierSignatureError();
      let payload: unknown;
      try {
        payload = JSON.parse(rawBody);
      } catch {
        throw new CarrierSignatureError('The carrier webhook body is not JSON');
      }
      const parsed = testCarrierEventSchema.safeParse(payload);
      if (!parsed.success)
        throw new CarrierSignatureError('The carrier webhook is not a scan this carrier sends');
      const { data } = parsed.data;
      const scan: CarrierScan = {
        eventId: parsed.data.id,
        trackingRef: data.trackingRef,
        providerRef: data.providerRef,
        status: data.status,
        occurredAt: new Date(data.occurredAt),
        location: data.location,
        description: data.description,
      };
      return { eventId: parsed.data.id, scans: [scan], payload };
    },
  };
}
