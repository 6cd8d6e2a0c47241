/**
 * The carrier port (issue 37, decision 0083), like the payment port: labels, drop-off points
 * and the carriers' scans. Embedded: the test carrier (real PDF labels with a barcode, a QR
 * code, a local list of UK lockers and parcel shops, and a page that posts signed scans).
 * Hosted: EasyPost (Royal Mail, Evri and InPost through one API), tested against a local server
 * shaped like its API. Checkout, orders and returns see only this interface.
 */
import type {
  CarrierNetwork,
  DeliveryMethod,
  DropOffPoint,
  PostageBand,
  ScanStatus,
} from '@reshelf/contracts';

export interface LabelAddress {
  fullName: string;
  line1: string;
  line2: string | null;
  town: string;
  postcode: string;
}

export interface LabelRequest {
  /**
   * Reshelf's shipment id: the carrier is asked with it as its idempotency key, so a retry after
   * a lost answer never buys a second label.
   */
  shipmentId: string;
  /** The order reference printed on the label (e.g. "RS-7F3K2"). */
  reference: string;
  from: LabelAddress;
  /** The buyer's door, or (for a drop-off choice) the buyer's name at the point. */
  to: LabelAddress;
  method: DeliveryMethod;
  network: CarrierNetwork;
  dropOffPoint: DropOffPoint | null;
  band: PostageBand;
  weightG: number;
  thicknessMm: number;
  lengthMm: number;
  widthMm: number;
  /** What Reshelf expects to pay (the rate card): the adapter refuses a dearer rate. */
  expectedCostMinor: number;
}

export interface BoughtLabel {
  providerRef: string;
  trackingRef: string;
  /** The carrier's public tracking page for this parcel. */
  trackingUrl: string;
  /** What the printer-free drop-off QR code carries. */
  qrCode: string;
  costMinor: number;
  /** The label documents: A4 and 4×6 inch thermal, as PDFs. */
  labels: { a4: Uint8Array; thermal_4x6: Uint8Array };
}

/** One scan as the carrier reported it, after its signature was checked. */
export interface CarrierScan {
  /** The carrier's id for the event: a scan delivered twice is recorded once. */
  eventId: string;
  trackingRef: string;
  providerRef: string | null;
  status: ScanStatus;
  occurredAt: Date;
  location: string | null;
  description: string;
}

export interface VerifiedWebhook {
  /** The webhook's own id (for the webhook log); one webhook may carry several scans. */
  eventId: string;
  scans: CarrierScan[];
  /** The raw payload, kept in carrier_webhook_events. */
  payload: unknown;
}

/** The carrier did not answer or refused: the sale stands and the seller may try again. */
export class CarrierUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryable = true,
  ) {
    super(message);
    this.name = 'CarrierUnavailableError';
  }
}

/** A webhook whose signature did not verify: answered 400, recorded nowhere. */
export class CarrierSignatureError extends Error {
  constructor(message = 'The carrier webhook signature did not verify') {
    super(message);
    this.name = 'CarrierSignatureError';
  }
}

export interface CarrierProvider {
  /** 'test' or 'easypost': stored on each shipment, names its webhook route. */
  readonly name: string;
  /** Lockers, parcel shops and Post Offices nearest the postcode that take a parcel of this band. */
  dropOffPoints(postcode: string, band: PostageBand | null, limit: number): Promise<DropOffPoint[]>;
  /** One point by id (checkout checks the buyer's choice still exists). */
  dropOffPoint(id: string): Promise<DropOffPoint | null>;
  /** Buys the label. Throws CarrierUnavailableError when the carrier is down or refuses. */
  buyLabel(request: LabelRequest): Promise<BoughtLabel>;
  /**
   * Checks a webhook's signature against the raw body and answers its scans; throws
   * CarrierSignatureError when it does not verify.
   */
  verifyWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): VerifiedWebhook;
}
