/**
 * Parcels (issue 37, decision 0083): the shapes the buyer's delivery choice, drop-off point
 * search, label download and tracking timeline share. The rules and texts are in parcel-words.
 */
import { z } from 'zod';
import {
  CARRIER_NETWORKS,
  DELIVERY_METHODS,
  DROP_OFF_POINT_KINDS,
  LABEL_FORMATS,
  LABEL_PAYERS,
  POSTAGE_BANDS,
  SCAN_STATUSES,
  SHIPMENT_DIRECTIONS,
  SHIPMENT_STATUSES,
} from './parcel-words.ts';
import { postcodeSchema } from './postcode.ts';

export * from './parcel-words.ts';

/** A drop-off point id as the carrier gives it (e.g. "INPOST-LON0042"). */
export const dropOffPointIdSchema = z
  .string()
  .trim()
  .min(3, 'Choose a drop-off point')
  .max(40, 'Choose a drop-off point from the list')
  .regex(/^[A-Z0-9-]+$/, 'Choose a drop-off point from the list');

/** How the buyer wants the parcel: to the door, or to a locker or parcel shop they chose. */
export const deliveryChoiceSchema = z.discriminatedUnion(
  'method',
  [
    z.object({ method: z.literal('home') }),
    z.object({ method: z.literal('drop_off'), pointId: dropOffPointIdSchema }),
  ],
  { error: 'Choose home delivery or a drop-off point' },
);
export type DeliveryChoice = z.infer<typeof deliveryChoiceSchema>;

export const dropOffSearchInputSchema = z.object({
  postcode: postcodeSchema,
  /** Only points that can take a parcel of this band (lockers have a size limit). */
  band: z.enum(POSTAGE_BANDS).optional(),
});

export const openingHoursSchema = z.array(
  z.object({
    /** 0 = Monday … 6 = Sunday. */
    day: z.number().int().min(0).max(6),
    opens: z.string().regex(/^\d{2}:\d{2}$/),
    closes: z.string().regex(/^\d{2}:\d{2}$/),
  }),
);

export const dropOffPointSchema = z.object({
  id: dropOffPointIdSchema,
  network: z.enum(CARRIER_NETWORKS),
  kind: z.enum(DROP_OFF_POINT_KINDS),
  name: z.string(),
  addressLine: z.string(),
  town: z.string(),
  postcode: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** Empty when open around the clock (most lockers). */
  openingHours: openingHoursSchema,
  /** From the searched postcode, in metres (absent on an order's saved point). */
  distanceM: z.number().int().nonnegative().optional(),
});
export type DropOffPoint = z.infer<typeof dropOffPointSchema>;

/**
 * One delivery method as checkout offers it for a parcel: its postage, the order's total with it
 * and when it would arrive (the server's figures; the browser never computes them).
 */
export const deliveryOptionSchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  label: z.string(),
  postageMinor: z.number().int(),
  totalMinor: z.number().int(),
  /** The expected delivery date (YYYY-MM-DD, London). */
  expectedDeliveryOn: z.string(),
});
export type DeliveryOption = z.infer<typeof deliveryOptionSchema>;

/** A quoted parcel: the chosen method (home delivery until the buyer chose) and both options. */
export const deliveryQuoteSchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  band: z.enum(POSTAGE_BANDS),
  bandLabel: z.string(),
  weightG: z.number().int(),
  thicknessMm: z.number().int(),
  expectedDeliveryOn: z.string(),
  /** The chosen locker or parcel shop, as the buyer saw it. */
  dropOffPoint: dropOffPointSchema.nullable(),
  /** Every method, in DELIVERY_METHODS order. */
  options: z.array(deliveryOptionSchema),
});
export type DeliveryQuote = z.infer<typeof deliveryQuoteSchema>;

export const labelInputSchema = z.object({
  shipmentId: z.string().uuid('Unknown parcel'),
  format: z.enum(LABEL_FORMATS, { error: 'Choose A4, a 4×6 inch label or the QR code' }),
});

export const scanViewSchema = z.object({
  status: z.enum(SCAN_STATUSES),
  text: z.string(),
  occurredAt: z.string(),
  location: z.string().nullable(),
  description: z.string(),
});

export const shipmentViewSchema = z.object({
  id: z.string().uuid(),
  direction: z.enum(SHIPMENT_DIRECTIONS),
  status: z.enum(SHIPMENT_STATUSES),
  statusText: z.string(),
  method: z.enum(DELIVERY_METHODS),
  network: z.enum(CARRIER_NETWORKS),
  carrierName: z.string(),
  band: z.enum(POSTAGE_BANDS),
  bandLabel: z.string(),
  costMinor: z.number().int(),
  paidBy: z.enum(LABEL_PAYERS),
  trackingRef: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  dropOffPoint: dropOffPointSchema.nullable(),
  /** The seller (or, for a return, the buyer) may download it. */
  labelAvailable: z.boolean(),
  /** The purchase failed and may be tried again. */
  canRetry: z.boolean(),
  lastError: z.string().nullable(),
  expectedDeliveryOn: z.string().nullable(),
  scans: z.array(scanViewSchema),
});
export type ShipmentView = z.infer<typeof shipmentViewSchema>;
