/**
 * The one function that builds what a person sees of a parcel (`ShipmentView`): its status and
 * text, the carrier and tracking link, the drop-off point, whether they may download the label
 * (its sender only), and its scans newest first, each with its text from the contracts.
 */
import {
  CARRIER_NETWORK_LABELS,
  type CarrierNetwork,
  type DeliveryMethod,
  type DropOffPoint,
  type LabelPayer,
  POSTAGE_BAND_LABELS,
  type PostageBand,
  type ScanStatus,
  SHIPMENT_STATUS_TEXT,
  type ShipmentDirection,
  type ShipmentView,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { type OrderSide, senderSide, sideOfOrder } from './parties.ts';
import { type ShipmentRow, shipmentStatus } from './shipments.ts';

const iso = (value: Date | string) => new Date(value).toISOString();
const day = (value: Date | string | null) => (value === null ? null : iso(value).slice(0, 10));

/** The views of the given shipments, for a reader on `side` of their order. */
export async function shipmentViews(
  db: Database | Transaction<DB>,
  rows: ShipmentRow[],
  side: OrderSide | 'staff',
): Promise<ShipmentView[]> {
  if (rows.length === 0) return [];
  const scans = await db
    .selectFrom('shipment_scans')
    .select(['shipment_id', 'status', 'occurred_at', 'location', 'description'])
    .where(
      'shipment_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('occurred_at', 'desc')
    .orderBy('received_at', 'desc')
    .execute();
  return rows.map((row) => {
    const status = shipmentStatus(row);
    const direction = row.direction as ShipmentDirection;
    const hasLabel = row.tracking_ref !== null && row.bought_at !== null;
    return {
      id: row.id,
      direction,
      status,
      statusText: SHIPMENT_STATUS_TEXT[status],
      method: row.method as DeliveryMethod,
      network: row.network as CarrierNetwork,
      carrierName: CARRIER_NETWORK_LABELS[row.network as CarrierNetwork],
      band: row.band as PostageBand,
      bandLabel: POSTAGE_BAND_LABELS[row.band as PostageBand],
      costMinor: row.cost_minor,
      paidBy: row.paid_by as LabelPayer,
      trackingRef: row.tracking_ref,
      trackingUrl: row.tracking_url,
      dropOffPoint: (row.drop_off_point as DropOffPoint | null) ?? null,
      labelAvailable: hasLabel && (side === 'staff' || side === senderSide(direction)),
      canRetry: status === 'label_failed' && side === senderSide(direction),
      lastError: status === 'label_failed' ? row.last_error : null,
      expectedDeliveryOn: day(row.expected_delivery_on),
      scans: scans
        .filter((scan) => scan.shipment_id === row.id)
        .map((scan) => ({
          status: scan.status as ScanStatus,
          text: SHIPMENT_STATUS_TEXT[scan.status as ScanStatus],
          occurredAt: iso(scan.occurred_at),
          location: scan.location,
          description: scan.description,
        })),
    };
  });
}

/** Every parcel of the order (outbound first, then returns), for its buyer or seller. */
export async function shipmentsForOrder(
  db: Database,
  userId: string,
  orderId: string,
): Promise<ShipmentView[]> {
  const side = await sideOfOrder(db, userId, orderId);
  if (!side)
    throw new AppError('NOT_FOUND', 'We could not find that order. Check the link, or look in your orders.');
  const rows = await db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('direction', 'asc')
    .orderBy('created_at', 'asc')
    .execute();
  return shipmentViews(db, rows, side);
}
