/**
 * Return labels (issue 37, decision 0083): an accepted return (a dispute's return stage, or a
 * trader's change-of-mind return) gives the buyer a prepaid label back to the seller.
 *
 *   openReturnShipment   in the step's own transaction: the return shipment (one per return,
 *                        the unique index), from the buyer's delivery address to the seller's
 *                        (a charity's own address), home collection by Royal Mail with the QR
 *                        code for a printer-free Post Office drop-off; band and weight from the
 *                        books going back (`parcelFor`), cost from `postageFor`, paid by the
 *                        rule's payer. Null when there is no carrier or no address to print:
 *                        the buyer then posts it their own way and types the tracking, as before.
 *   buyReturnLabel       after the commit: buys it (`purchaseLabel`, once however often asked);
 *                        a carrier outage leaves it `label_failed` for the buyer to try again.
 *
 * What the return's scans do is in returns-scans.ts (`onScan('return', …)`).
 */
import {
  type CarrierNetwork,
  HOME_DELIVERY_NETWORK,
  type LabelPayer,
  type ParcelBook,
  parcelFor,
  postageFor,
  type ScanStatus,
  SHIPMENT_STATUS_TEXT,
} from '@reshelf/contracts';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { CarrierProvider, LabelAddress } from '../../platform/carriers/port.ts';
import { getCommercialSettings } from '../../platform/settings/settings.service.ts';
import { tellBoth } from '../disputes/dispute-mail.ts';
import type { OrderMailDeps } from '../orders/order-mail.ts';
import { parcelBooksOf, sellerPostingAddress } from './parcel-of-order.ts';
import {
  type LabelParties,
  openShipment,
  purchaseLabel,
  type ShipmentRow,
  shipmentById,
} from './shipments.ts';

type Trx = Transaction<DB>;

/** What a return label needs: the database and (when the site has one) the carrier. */
export interface ReturnParcelDeps {
  db: Database;
  carriers?: CarrierProvider | undefined;
}

/** Which return the parcel carries back: a dispute's, or a change-of-mind return's. */
export type ReturnOf = { disputeId: string } | { returnRequestId: string };

/** The method a return label is bought for: collection from the buyer's door by Royal Mail, or its QR at a Post Office. */
export const RETURN_METHOD = 'home' as const;

/**
 * Opens the return's shipment in `trx` (the step that accepted the return), or finds the one
 * opened already. Answers its id, or null when no label can be bought (no carrier configured,
 * or an address missing): the buyer posts it their own way.
 */
export async function openReturnShipment(
  trx: Trx,
  deps: ReturnParcelDeps,
  orderId: string,
  of: ReturnOf,
  paidBy: LabelPayer,
): Promise<string | null> {
  if (!deps.carriers) return null;
  const parties = await returnParties(trx, orderId);
  if (!parties) return null;
  const books = await booksGoingBack(trx, orderId, of);
  if (books.length === 0) return null;
  let parcel: ReturnType<typeof parcelFor>;
  try {
    parcel = parcelFor(books);
  } catch {
    // Past one Medium Parcel: the buyer posts it their own way.
    return null;
  }
  const { postageRates } = await getCommercialSettings(trx as unknown as Database);
  const shipment = await openShipment(
    trx,
    {
      orderId,
      direction: 'return',
      disputeId: 'disputeId' in of ? of.disputeId : null,
      returnRequestId: 'returnRequestId' in of ? of.returnRequestId : null,
      network: HOME_DELIVERY_NETWORK,
      method: RETURN_METHOD,
      dropOffPoint: null,
      band: parcel.band,
      weightG: parcel.weightG,
      thicknessMm: parcel.thicknessMm,
      costMinor: postageFor(parcel.band, RETURN_METHOD, postageRates),
      paidBy,
    },
    deps.carriers.name,
  );
  return shipment.id;
}

/** The return's shipment, if it has one. */
export async function returnShipmentOf(db: Database | Trx, of: ReturnOf): Promise<ShipmentRow | undefined> {
  const query = db.selectFrom('shipments').selectAll().where('direction', '=', 'return');
  return 'disputeId' in of
    ? query.where('dispute_id', '=', of.disputeId).executeTakeFirst()
    : query.where('return_request_id', '=', of.returnRequestId).executeTakeFirst();
}

/**
 * Buys the return label (after the commit that opened the shipment). A carrier outage is kept
 * on the shipment (`label_failed`, the buyer's "Try again") and answered as null here: the
 * return itself stands.
 */
export async function buyReturnLabel(
  deps: ReturnParcelDeps,
  shipmentId: string | null,
): Promise<ShipmentRow | null> {
  if (!shipmentId || !deps.carriers) return null;
  try {
    return await purchaseReturnLabel(deps, shipmentId);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** The buyer's "Try again" on a return label that could not be bought: their own return only. */
export async function retryReturnLabel(
  deps: ReturnParcelDeps,
  buyerId: string,
  shipmentId: string,
): Promise<ShipmentRow> {
  const shipment = await deps.db
    .selectFrom('shipments as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select(['s.id', 's.status'])
    .where('s.id', '=', shipmentId)
    .where('s.direction', '=', 'return')
    .where('o.buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (!shipment) throw new AppError('NOT_FOUND', 'We could not find that return label.');
  if (shipment.status !== 'label_failed' && shipment.status !== 'buying') {
    throw new AppError('CONFLICT', 'Your return label is ready: reload the page to download it.');
  }
  return purchaseReturnLabel(deps, shipmentId);
}

async function purchaseReturnLabel(deps: ReturnParcelDeps, shipmentId: string): Promise<ShipmentRow> {
  if (!deps.carriers) throw new AppError('UNAVAILABLE', 'Return labels are not available here.');
  const shipment = await shipmentById(deps.db, shipmentId);
  const parties = await returnParties(deps.db, shipment.order_id);
  if (!parties) throw new AppError('PRECONDITION_FAILED', 'We do not have both addresses for this return.');
  return purchaseLabel({ db: deps.db, carriers: deps.carriers }, shipmentId, parties);
}

interface StoredAddress {
  fullName?: unknown;
  line1?: unknown;
  line2?: unknown;
  town?: unknown;
  postcode?: unknown;
}

function labelAddress(value: StoredAddress | null | undefined): LabelAddress | null {
  if (!value) return null;
  const text = (field: unknown) => (typeof field === 'string' && field.trim() ? field.trim() : null);
  const fullName = text(value.fullName);
  const line1 = text(value.line1);
  const town = text(value.town);
  const postcode = text(value.postcode);
  if (!fullName || !line1 || !town || !postcode) return null;
  return { fullName, line1, line2: text(value.line2), town, postcode };
}

/**
 * A return goes from where the buyer had it delivered back to where the seller posts from
 * (`sellerPostingAddress`: a charity's own address, or the seller's default saved address).
 */
export async function returnParties(db: Database | Trx, orderId: string): Promise<LabelParties | null> {
  const order = await db
    .selectFrom('orders')
    .select('shipping_address')
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const from = labelAddress(order.shipping_address as StoredAddress | null);
  const to = await sellerPostingAddress(db, orderId);
  return from && to ? { from, to } : null;
}

/** The books the return carries: those it names, or every book of the order. */
async function booksGoingBack(trx: Trx, orderId: string, of: ReturnOf): Promise<ParcelBook[]> {
  const named = await ('disputeId' in of
    ? trx.selectFrom('dispute_items').select('order_item_id').where('dispute_id', '=', of.disputeId)
    : trx.selectFrom('return_items').select('order_item_id').where('return_id', '=', of.returnRequestId)
  ).execute();
  return parcelBooksOf(
    trx,
    orderId,
    named.map((row) => row.order_item_id),
  );
}

/** A return label's scan as the return's side sees it (returns-scans.ts hands it on). */
export interface ReturnParcelScan {
  shipmentId: string;
  disputeId: string | null;
  returnRequestId: string | null;
  network: CarrierNetwork;
  trackingRef: string;
  occurredAt: Date;
  /** The shipment's status before and after this scan. */
  before: string;
  after: ScanStatus;
}

/** The return parcel could not be delivered to the seller, or went back to the buyer: both told. */
export async function tellReturnTrouble(
  trx: Trx,
  deps: OrderMailDeps,
  orderId: string,
  reference: string,
  status: 'delivery_failed' | 'returned_to_sender',
): Promise<void> {
  const what = SHIPMENT_STATUS_TEXT[status];
  await tellBoth(trx, deps, orderId, {
    template: 'order.return_parcel_trouble',
    notice: 'return_update',
    buyer: {
      subject: `Your return: ${what.toLowerCase()}`,
      lines: [
        status === 'returned_to_sender'
          ? `The carrier has brought the return parcel for order ${reference} back to you. Write to the seller in the order's conversation, or report it to us from your order.`
          : `The carrier could not deliver the return parcel for order ${reference} to the seller. They try again; you do not need to do anything yet.`,
      ],
    },
    seller: {
      subject: `A return to you: ${what.toLowerCase()}`,
      lines: [
        status === 'returned_to_sender'
          ? `The return parcel for order ${reference} went back to the buyer: the refund waits until the book reaches you.`
          : `The carrier could not deliver the return parcel for order ${reference} to you. Check the carrier's card or tracking page to collect it.`,
      ],
    },
  });
}
