/**
 * A carrier for tests (a double of the carrier port): counts label purchases, can be slow or
 * down, makes real-enough PDFs, and verifies webhooks signed with an HMAC of its own, so a test
 * can post scans through the real route.
 */
import { createHmac } from 'node:crypto';
import type { ScanStatus } from '@reshelf/contracts';
import {
  type BoughtLabel,
  type CarrierProvider,
  CarrierSignatureError,
  CarrierUnavailableError,
  type LabelRequest,
} from '../platform/carriers/port.ts';

const SECRET = 'carrier-double-secret';
export const DOUBLE_SIGNATURE_HEADER = 'x-double-signature';

/** A small PDF (over the 100 bytes shipment_labels asks of a document). */
export function tinyPdf(title: string): Uint8Array {
  const body = `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${title}\ntrailer << /Root 1 0 R >>\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

export interface ScanInput {
  eventId: string;
  trackingRef: string;
  status: ScanStatus;
  occurredAt: Date;
  location?: string | null;
  description?: string;
}

export interface CarrierDouble extends CarrierProvider {
  calls: number;
  requests: LabelRequest[];
  /** Throw CarrierUnavailableError from buyLabel while true. */
  down: boolean;
  /** Each purchase waits this long (a slow carrier). */
  delayMs: number;
  /** The tracking number the next label gets (else one made up). */
  nextTrackingRef: string | null;
  /** A signed webhook body and headers carrying these scans. */
  signed(eventId: string, scans: ScanInput[]): { body: string; headers: Record<string, string> };
}

let serial = 0;

export function createCarrierDouble(name = 'test'): CarrierDouble {
  const sign = (body: string) => createHmac('sha256', SECRET).update(body).digest('hex');
  const double: CarrierDouble = {
    name,
    calls: 0,
    requests: [],
    down: false,
    delayMs: 0,
    nextTrackingRef: null,
    async dropOffPoints() {
      return [];
    },
    async dropOffPoint() {
      return null;
    },
    async buyLabel(request): Promise<BoughtLabel> {
      double.calls += 1;
      double.requests.push(request);
      if (double.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, double.delayMs));
      if (double.down) throw new CarrierUnavailableError('The carrier is down');
      serial += 1;
      const trackingRef = double.nextTrackingRef ?? `DB${String(serial).padStart(9, '0')}GB`;
      double.nextTrackingRef = null;
      return {
        providerRef: `shp_${request.shipmentId}`,
        trackingRef,
        trackingUrl: `https://track.example/${trackingRef}`,
        qrCode: `DROP-${trackingRef}`,
        costMinor: request.expectedCostMinor,
        labels: { a4: tinyPdf(`A4 ${trackingRef}`), thermal_4x6: tinyPdf(`4x6 ${trackingRef}`) },
      };
    },
    verifyWebhook(rawBody, headers) {
      const given = headers[DOUBLE_SIGNATURE_HEADER];
      if (typeof given !== 'string' || given !== sign(rawBody)) throw new CarrierSignatureError();
      const body = JSON.parse(rawBody) as { id: string; scans: (ScanInput & { occurredAt: string })[] };
      return {
        eventId: body.id,
        scans: body.scans.map((scan) => ({
          eventId: scan.eventId,
          trackingRef: scan.trackingRef,
          providerRef: null,
          status: scan.status,
          occurredAt: new Date(scan.occurredAt),
          location: scan.location ?? null,
          description: scan.description ?? scan.status,
        })),
        payload: body,
      };
    },
    signed(eventId, scans) {
      const body = JSON.stringify({ id: eventId, scans });
      return { body, headers: { 'content-type': 'application/json', [DOUBLE_SIGNATURE_HEADER]: sign(body) } };
    },
  };
  return double;
}
