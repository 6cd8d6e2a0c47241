/**
 * The seller's parcel to the buyer (issue 37, decision 0083).
 *
 *   getLabel           the seller (or the charity) presses "Get label": the outbound shipment is
 *                      opened from the order's delivery choice and its label bought once
 *   the outbound hook  what the carrier's scans do to the order: the first scan dispatches it,
 *                      "delivered" delivers it (the buyer's window starts, then `autoComplete`
 *                      completes it and releases the payout), a failed delivery and a parcel
 *                      returned to the sender tell both sides
 *   confirmReturned    the seller has the returned parcel back: the buyer is refunded in full
 *
 * Orders move only through the state machine, as the carrier (the `provider` actor): a scan
 * that arrives late or twice finds the order already there and moves nothing.
 */
import {
  ADD_SENDER_ADDRESS,
  CARRIERS,
  type CarrierNetwork,
  type DropOffPoint,
  NETWORK_CARRIER,
  SHIPMENT_STATUS_TEXT,
  type ShipmentView,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { LabelAddress } from '../../platform/carriers/port.ts';
import { chargeLabel } from '../money/labels.ts';
import { type Actor, lockOrderRow, MOVED_ON, noteOnOrder, transition } from '../orders/order-machine.ts';
import { type OrderMailDeps, queueOrderMail } from '../orders/order-mail.ts';
import {
  lockOrder,
  type OrderDeps,
  queueFollowUp,
  refundAll,
  requireStatus,
} from '../orders/orders.service.ts';
import { onScan, type ScanEffect } from './carrier-webhooks.ts';
import { parcelOfOrder, sellerPostingAddress } from './parcel-of-order.ts';
import { sideOfOrder } from './parties.ts';
import { shipmentViews } from './shipment-view.ts';
import { openShipment, type ParcelDeps, purchaseLabel, type ShipmentRow, shipmentById } from './shipments.ts';

type Trx = Transaction<DB>;

const CARRIER: Actor = { id: null, kind: 'provider' };
const NOT_FOUND = 'We could not find that order. Check the link, or look in your orders.';
export const LABEL_ONLY_WHEN_PAID =
  'A label can be bought only for a paid sale that has not been posted yet.';
export const NOT_RETURNED = 'The carrier has not said this parcel is on its way back to you.';

// Scans ----------------------------------------------------------------------------------------

/** The carrier and tracking reference the order records when the label's parcel is scanned. */
function dispatchDetails(shipment: ShipmentRow) {
  const carrier = NETWORK_CARRIER[shipment.network as CarrierNetwork];
  const trackingRef = shipment.tracking_ref ?? '';
  return { carrier, trackingRef, label: CARRIERS[carrier].label };
}

/** Where a buyer collects a parcel the carrier could not deliver. */
function collectFrom(shipment: ShipmentRow, location: string | null): string {
  const point = shipment.drop_off_point as DropOffPoint | null;
  if (point) {
    const where = location ?? `${point.name}, ${point.addressLine}, ${point.town} ${point.postcode}`;
    return `Collect it from ${where} with the collection code the carrier sent you.`;
  }
  return `Look for the card the carrier left${location ? ` (the parcel is at ${location})` : ''}: it says where to collect the parcel or how to arrange another delivery.`;
}

/**
 * What an outbound scan does to its order. Runs in the scan's transaction, only when the scan
 * moved the shipment to a new status; an order already past the step is left where it is.
 */
export const outboundScanEffect =
  (deps: OrderMailDeps): ScanEffect =>
  async (trx, { shipment, scan, before, after }) => {
    if (before === after) return;
    let order = await lockOrderRow(trx, shipment.order_id);
    if (!order) return;
    const { carrier, trackingRef, label } = dispatchDetails(shipment);
    if (order.status === 'paid') {
      // The first scan: the parcel is with the carrier.
      const moved = await transition(
        trx,
        order,
        'dispatched',
        CARRIER,
        `${label} ${trackingRef}: ${SHIPMENT_STATUS_TEXT[scan.status]}`,
        { carrier, trackingRef },
      );
      order = moved.order;
      await queueFollowUp(
        trx,
        deps,
        order.id,
        moved.followUp,
        `It is with ${label}, tracking reference ${trackingRef}.`,
      );
    }
    if (order.status !== 'dispatched') return;
    if (after === 'delivered') {
      const moved = await transition(trx, order, 'delivered', CARRIER, `${label} scanned it delivered`);
      await queueFollowUp(trx, deps, order.id, moved.followUp);
    } else if (after === 'delivery_failed') {
      await noteOnOrder(trx, order.id, CARRIER, `${label} could not deliver it: ${scan.description}`);
      await queueOrderMail(trx, deps, order.id, 'delivery_failed', collectFrom(shipment, scan.location));
    } else if (after === 'returned_to_sender') {
      await noteOnOrder(trx, order.id, CARRIER, `${label} is returning it to the seller`);
      await queueOrderMail(trx, deps, order.id, 'returned_to_sender');
    }
  };

/** Installs what outbound scans do, with the deps their letters need (app start). */
export function registerOutboundScans(deps: OrderMailDeps): void {
  onScan('outbound', outboundScanEffect(deps));
}

// Get label ------------------------------------------------------------------------------------

/** The address the seller posts from (the one place: parcel-of-order), or "add it" when there is none. */
async function senderAddress(db: Database | Trx, orderId: string): Promise<LabelAddress> {
  const address = await sellerPostingAddress(db, orderId);
  if (!address) throw new AppError('BAD_INPUT', ADD_SENDER_ADDRESS);
  return address;
}

/** Where the label sends it: the buyer's door, or the buyer's name at the point they chose. */
function recipient(shippingAddress: unknown, point: DropOffPoint | null): LabelAddress {
  const address = shippingAddress as LabelAddress | null;
  if (!address) throw new AppError('PRECONDITION_FAILED', 'This order has no delivery address.');
  if (!point) return address;
  return {
    fullName: address.fullName,
    line1: point.name,
    line2: point.addressLine,
    town: point.town,
    postcode: point.postcode,
  };
}

/** A label being bought by another press of the button: wait for its answer (a few seconds). */
const WAIT_FOR_OTHER_PURCHASE_MS = 15_000;
const WAIT_STEP_MS = 150;

async function settled(db: Database, shipment: ShipmentRow): Promise<ShipmentRow> {
  let row = shipment;
  for (
    let waited = 0;
    row.status === 'buying' && waited < WAIT_FOR_OTHER_PURCHASE_MS;
    waited += WAIT_STEP_MS
  ) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    row = await shipmentById(db, row.id);
  }
  return row;
}

/**
 * "Get label": the sale's outbound parcel, its label bought if it has none (once, however many
 * times the button is pressed at once). A carrier outage answers UNAVAILABLE (LABEL_UNAVAILABLE)
 * and keeps the sale; the next press tries again.
 */
export async function getLabel(deps: ParcelDeps, userId: string, orderId: string): Promise<ShipmentView> {
  if ((await sideOfOrder(deps.db, userId, orderId)) !== 'seller') throw new AppError('NOT_FOUND', NOT_FOUND);
  const order = await deps.db
    .selectFrom('orders')
    .select(['id', 'status', 'seller_id', 'shipping_address', 'postage_minor'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const existing = await deps.db
    .selectFrom('shipments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('direction', '=', 'outbound')
    .executeTakeFirst();
  let shipment = existing;
  if (!shipment || shipment.status === 'buying' || shipment.status === 'label_failed') {
    if (order.status !== 'paid') throw new AppError('PRECONDITION_FAILED', LABEL_ONLY_WHEN_PAID);
    const parcel = await parcelOfOrder(deps.db, orderId);
    const parties = {
      from: await senderAddress(deps.db, orderId),
      to: recipient(order.shipping_address, parcel.dropOffPoint),
    };
    const open =
      shipment ??
      (await deps.db.transaction().execute((trx) =>
        openShipment(
          trx,
          {
            orderId,
            direction: 'outbound',
            network: parcel.network,
            method: parcel.method,
            dropOffPoint: parcel.dropOffPoint,
            band: parcel.band,
            weightG: parcel.weightG,
            thicknessMm: parcel.thicknessMm,
            // The buyer paid what the label costs (decision 0083).
            costMinor: order.postage_minor,
            paidBy: 'buyer',
          },
          deps.carriers.name,
        ),
      ));
    shipment = await settled(deps.db, await purchaseLabel(deps, open.id, parties, chargeLabel));
  }
  const [view] = await shipmentViews(deps.db, [shipment], 'seller');
  if (!view) throw new AppError('NOT_FOUND', NOT_FOUND);
  return view;
}

// Back to the seller ---------------------------------------------------------------------------

/**
 * The carrier returned the parcel and the seller has it back: the buyer is refunded in full
 * (the refund command, which also takes back the seller's credit) and the order is refunded.
 */
export async function confirmReturned(deps: OrderDeps, userId: string, orderId: string): Promise<void> {
  if ((await sideOfOrder(deps.db, userId, orderId)) !== 'seller') throw new AppError('NOT_FOUND', NOT_FOUND);
  await deps.db.transaction().execute(async (trx) => {
    const order = await lockOrder(trx, orderId, 'any');
    requireStatus(order, ['dispatched'], MOVED_ON);
    const shipment = await trx
      .selectFrom('shipments')
      .select('status')
      .where('order_id', '=', orderId)
      .where('direction', '=', 'outbound')
      .executeTakeFirst();
    if (shipment?.status !== 'returned_to_sender') throw new AppError('PRECONDITION_FAILED', NOT_RETURNED);
    const actor: Actor = { id: userId, kind: order.seller_id === userId ? 'seller' : 'charity' };
    const { followUp } = await refundAll(
      trx,
      deps.payments,
      order,
      'refunded',
      'The carrier returned the parcel to the seller',
      actor,
    );
    // The book is back with the seller: off sale until they list it again.
    await trx
      .updateTable('listings')
      .set({ status: 'withdrawn' })
      .where('id', 'in', (eb) =>
        eb.selectFrom('order_items').select('listing_id').where('order_id', '=', orderId),
      )
      .execute();
    await queueFollowUp(trx, deps, orderId, followUp);
  });
}
