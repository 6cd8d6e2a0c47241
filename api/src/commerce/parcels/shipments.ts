/**
 * Shipments (issue 37, decision 0083): a parcel whose label Reshelf buys, to the buyer
 * (outbound, one per order) or back to the seller (one per return). The one place a label is
 * bought and a shipment's status changes.
 *
 *   openShipment      writes the row (the unique indexes make a second open find the first)
 *   purchaseLabel     claims the row, asks the carrier with the shipment id as its idempotency
 *                     key, records the label (or the failure, to retry): a label is bought once
 *                     however many times the button is pressed at once
 *   applyScans        (carrier-webhooks.ts) records scans and moves the shipment on
 *
 * What a shipment's scans do to its order or return is the direction's business: the hooks
 * registered with `onScan` at app start (outbound.ts: orders; returns-scans.ts: returns).
 */
import {
  type CarrierNetwork,
  type DeliveryMethod,
  type DropOffPoint,
  LABEL_UNAVAILABLE,
  type LabelPayer,
  type PostageBand,
  type ShipmentDirection,
  type ShipmentStatus,
} from '@reshelf/contracts';
import { type Selectable, sql, type Transaction } from 'kysely';
import type { DB, Shipments } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import {
  type BoughtLabel,
  type CarrierProvider,
  CarrierUnavailableError,
  type LabelAddress,
} from '../../platform/carriers/port.ts';
import { applyWaitingScans } from './carrier-webhooks.ts';

export type ShipmentRow = Selectable<Shipments>;
type Trx = Transaction<DB>;

export interface ParcelDeps {
  db: Database;
  carriers: CarrierProvider;
}

/** A purchase claimed this long ago and never answered (the BFF died) may be claimed again. */
export const STALE_PURCHASE_SECONDS = 120;

export interface NewShipment {
  orderId: string;
  direction: ShipmentDirection;
  disputeId?: string | null;
  returnRequestId?: string | null;
  network: CarrierNetwork;
  method: DeliveryMethod;
  dropOffPoint: DropOffPoint | null;
  band: PostageBand;
  weightG: number;
  thicknessMm: number;
  costMinor: number;
  paidBy: LabelPayer;
}

/**
 * The shipment for this order (outbound) or this return, written if it is not there yet; in the
 * caller's transaction. Answers the row, new or existing.
 */
export async function openShipment(trx: Trx, input: NewShipment, provider: string): Promise<ShipmentRow> {
  const inserted = await trx
    .insertInto('shipments')
    .values({
      order_id: input.orderId,
      direction: input.direction,
      dispute_id: input.disputeId ?? null,
      return_request_id: input.returnRequestId ?? null,
      provider,
      network: input.network,
      method: input.method,
      drop_off_point: input.dropOffPoint === null ? null : JSON.stringify(input.dropOffPoint),
      band: input.band,
      weight_g: input.weightG,
      thickness_mm: input.thicknessMm,
      cost_minor: input.costMinor,
      paid_by: input.paidBy,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  let existing = trx.selectFrom('shipments').selectAll();
  existing =
    input.direction === 'outbound'
      ? existing.where('order_id', '=', input.orderId).where('direction', '=', 'outbound')
      : input.disputeId
        ? existing.where('dispute_id', '=', input.disputeId)
        : existing.where('return_request_id', '=', input.returnRequestId ?? null);
  const row = await existing.executeTakeFirst();
  if (!row) throw new AppError('CONFLICT', 'That parcel could not be recorded: try again.');
  return row;
}

/** Who sends and who receives, for the label (the caller knows the direction's addresses). */
export interface LabelParties {
  from: LabelAddress;
  to: LabelAddress;
}

/**
 * Buys the shipment's label if it has none: claims it (one caller at a time; a purchase left
 * half-way by a crash may be claimed again after STALE_PURCHASE_SECONDS), asks the carrier
 * outside any transaction (the shipment id is the carrier's idempotency key, so a retry after a
 * lost answer does not buy twice), then records the label, or the failure with the carrier's
 * message. A carrier outage throws UNAVAILABLE with LABEL_UNAVAILABLE; the shipment stays, so
 * the sale stands and the seller can try again. Answers the shipment as it now is.
 */
export async function purchaseLabel(
  deps: ParcelDeps,
  shipmentId: string,
  parties: LabelParties,
  afterRecorded?: (trx: Trx, shipment: ShipmentRow) => Promise<void>,
): Promise<ShipmentRow> {
  const claimed = await deps.db
    .updateTable('shipments')
    .set({
      status: 'buying',
      purchase_attempts: sql<number>`purchase_attempts + 1`,
      last_error: null,
    })
    .where('id', '=', shipmentId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'label_failed'),
        eb.and([
          eb('status', '=', 'buying'),
          eb.or([
            eb('purchase_attempts', '=', 0),
            eb('updated_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_PURCHASE_SECONDS})`),
          ]),
        ]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return shipmentById(deps.db, shipmentId);

  const order = await deps.db
    .selectFrom('orders')
    .select(['reference'])
    .where('id', '=', claimed.order_id)
    .executeTakeFirstOrThrow();
  const dropOffPoint = (claimed.drop_off_point as DropOffPoint | null) ?? null;
  let bought: BoughtLabel;
  try {
    bought = await deps.carriers.buyLabel({
      shipmentId: claimed.id,
      reference: order.reference,
      from: parties.from,
      to: parties.to,
      method: claimed.method as DeliveryMethod,
      network: claimed.network as CarrierNetwork,
      dropOffPoint,
      band: claimed.band as PostageBand,
      weightG: claimed.weight_g,
      thicknessMm: claimed.thickness_mm,
      ...footprintOf(claimed.band as PostageBand),
      expectedCostMinor: claimed.cost_minor,
    });
  } catch (error) {
    const message =
      error instanceof CarrierUnavailableError ? error.message : 'The carrier refused the label.';
    await deps.db
      .updateTable('shipments')
      .set({ status: 'label_failed', last_error: message.slice(0, 500) })
      .where('id', '=', claimed.id)
      .where('status', '=', 'buying')
      .execute();
    if (error instanceof CarrierUnavailableError) {
      throw new AppError('UNAVAILABLE', error.retryable ? LABEL_UNAVAILABLE : error.message);
    }
    throw error;
  }

  return deps.db.transaction().execute(async (trx) => {
    const recorded = await trx
      .updateTable('shipments')
      .set({
        status: 'label_ready',
        provider_ref: bought.providerRef,
        tracking_ref: bought.trackingRef,
        tracking_url: bought.trackingUrl,
        qr_code: bought.qrCode,
        cost_minor: bought.costMinor,
        bought_at: new Date(),
        last_error: null,
      })
      .where('id', '=', claimed.id)
      .where('status', '=', 'buying')
      .returningAll()
      .executeTakeFirst();
    if (!recorded) return shipmentById(trx, claimed.id);
    await trx
      .insertInto('shipment_labels')
      .values([
        { shipment_id: recorded.id, format: 'a4', pdf: Buffer.from(bought.labels.a4) },
        { shipment_id: recorded.id, format: 'thermal_4x6', pdf: Buffer.from(bought.labels.thermal_4x6) },
      ])
      .onConflict((conflict) => conflict.columns(['shipment_id', 'format']).doNothing())
      .execute();
    if (afterRecorded) await afterRecorded(trx, recorded);
    // Scans that came before the label was recorded (a fast carrier, a slow answer).
    if ((await applyWaitingScans(trx, recorded)) > 0) return shipmentById(trx, recorded.id);
    return recorded;
  });
}

/** The parcel's footprint from its band's typical mailer (the label needs it; the band decides the price). */
function footprintOf(band: PostageBand): { lengthMm: number; widthMm: number } {
  return band === 'large_letter'
    ? { lengthMm: 300, widthMm: 220 }
    : band === 'small_parcel'
      ? { lengthMm: 350, widthMm: 250 }
      : { lengthMm: 450, widthMm: 350 };
}

export async function shipmentById(db: Database | Trx, shipmentId: string): Promise<ShipmentRow> {
  const row = await db.selectFrom('shipments').selectAll().where('id', '=', shipmentId).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'We could not find that parcel.');
  return row;
}

export function shipmentStatus(row: Pick<ShipmentRow, 'status'>): ShipmentStatus {
  return row.status as ShipmentStatus;
}
