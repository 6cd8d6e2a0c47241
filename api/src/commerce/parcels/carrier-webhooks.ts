/**
 * The carriers' scans (issue 37, decision 0083). A webhook whose signature verified is logged
 * once in `carrier_webhook_events` (a repeat is a duplicate and changes nothing); each scan is
 * recorded once in `shipment_scans` (the carrier's event id is the key); the shipment's status
 * is its latest scan by time, except that a final scan (delivered, returned to sender) stays
 * final when an older scan arrives late. A scan for a parcel not known yet is kept as
 * `unknown_parcel` and applied when its label is recorded (`applyWaitingScans`).
 *
 * What a scan does to the order or the return is the direction's hook (`ScanEffects`), run in
 * the same transaction as the scan, once per scan status newly reached.
 */
import {
  FINAL_SCAN_STATUSES,
  SCAN_STATUSES,
  type ScanStatus,
  type ShipmentDirection,
} from '@reshelf/contracts';
import type { Selectable, Transaction } from 'kysely';
import type { DB, Shipments } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import type { CarrierScan, VerifiedWebhook } from '../../platform/carriers/port.ts';

type Trx = Transaction<DB>;
type ShipmentRow = Selectable<Shipments>;

/**
 * What a scan does beyond the shipment: called once for each scan newly recorded, after the
 * shipment's status is updated, with the status the shipment had before (equal to `after` when a
 * late, older scan changed nothing). Emails are queued on `trx`; a hook is registered at app
 * start with the deps it needs (mailer, origin, payments).
 */
export type ScanEffect = (
  trx: Trx,
  context: { shipment: ShipmentRow; scan: CarrierScan; before: string; after: string },
) => Promise<void>;

const effects: Partial<Record<ShipmentDirection, ScanEffect>> = {};

/** The outbound and return features register what their scans do (once, at import). */
export function onScan(direction: ShipmentDirection, effect: ScanEffect): void {
  effects[direction] = effect;
}

export type WebhookOutcome = 'applied' | 'duplicate' | 'unknown_parcel' | 'ignored';

/** Records a verified webhook and applies its scans, in one transaction. */
export async function recordCarrierWebhook(
  db: Database,
  provider: string,
  webhook: VerifiedWebhook,
): Promise<WebhookOutcome> {
  return db.transaction().execute(async (trx) => {
    const trackingRef = webhook.scans[0]?.trackingRef ?? null;
    const logged = await trx
      .insertInto('carrier_webhook_events')
      .values({
        provider,
        event_id: webhook.eventId,
        tracking_ref: trackingRef,
        payload: JSON.stringify({ scans: webhook.scans, raw: webhook.payload ?? null }),
        outcome: 'ignored',
      })
      .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!logged) return 'duplicate';
    if (webhook.scans.length === 0) return 'ignored';
    let outcome: WebhookOutcome = 'duplicate';
    for (const scan of webhook.scans) {
      const applied = await applyScan(trx, provider, scan);
      if (applied === 'unknown_parcel') outcome = 'unknown_parcel';
      else if (applied === 'applied' && outcome !== 'unknown_parcel') outcome = 'applied';
    }
    await trx
      .updateTable('carrier_webhook_events')
      .set({ outcome, applied_at: outcome === 'applied' ? new Date() : null })
      .where('provider', '=', provider)
      .where('event_id', '=', webhook.eventId)
      .execute();
    return outcome;
  });
}

/** One scan: recorded once; the shipment moves on; the direction's hook runs. */
export async function applyScan(
  trx: Trx,
  provider: string,
  scan: CarrierScan,
): Promise<'applied' | 'duplicate' | 'unknown_parcel'> {
  const shipment = await trx
    .selectFrom('shipments')
    .selectAll()
    .where('provider', '=', provider)
    .where('tracking_ref', '=', scan.trackingRef)
    .forUpdate()
    .executeTakeFirst();
  if (!shipment) return 'unknown_parcel';
  const recorded = await trx
    .insertInto('shipment_scans')
    .values({
      shipment_id: shipment.id,
      provider,
      event_id: scan.eventId,
      status: scan.status,
      occurred_at: scan.occurredAt,
      location: scan.location?.slice(0, 200) ?? null,
      description: scan.description.slice(0, 500),
    })
    .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!recorded) return 'duplicate';

  const after = await settledStatus(trx, shipment.id);
  const firstScanAt =
    shipment.first_scan_at === null || new Date(shipment.first_scan_at) > scan.occurredAt
      ? scan.occurredAt
      : new Date(shipment.first_scan_at);
  const lastScanAt =
    shipment.last_scan_at === null || new Date(shipment.last_scan_at) < scan.occurredAt
      ? scan.occurredAt
      : new Date(shipment.last_scan_at);
  const moved = await trx
    .updateTable('shipments')
    .set({
      status: after,
      first_scan_at: firstScanAt,
      last_scan_at: lastScanAt,
      delivered_at:
        scan.status === 'delivered' && shipment.delivered_at === null
          ? scan.occurredAt
          : shipment.delivered_at,
    })
    .where('id', '=', shipment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const effect = effects[shipment.direction as ShipmentDirection];
  if (effect) await effect(trx, { shipment: moved, scan, before: shipment.status, after });
  return 'applied';
}

/**
 * The shipment's status from all its scans: the latest by time, unless a final scan is among
 * them (then the earliest final one: a parcel delivered is not "in transit" again because an
 * older scan arrived late).
 */
async function settledStatus(trx: Trx, shipmentId: string): Promise<ScanStatus> {
  const scans = await trx
    .selectFrom('shipment_scans')
    .select(['status', 'occurred_at'])
    .where('shipment_id', '=', shipmentId)
    .orderBy('occurred_at', 'asc')
    .orderBy('received_at', 'asc')
    .execute();
  const final = scans.find((scan) => FINAL_SCAN_STATUSES.includes(scan.status as ScanStatus));
  const settled = final ?? scans[scans.length - 1];
  const status = settled?.status as ScanStatus | undefined;
  if (!status || !SCAN_STATUSES.includes(status)) throw new Error(`shipment ${shipmentId} has no scans`);
  return status;
}

/** The scans a logged webhook carried (stored beside its raw payload). */
function loggedScans(payload: unknown): CarrierScan[] {
  const scans = (payload as { scans?: (Omit<CarrierScan, 'occurredAt'> & { occurredAt: string })[] })?.scans;
  return (scans ?? []).map((scan) => ({ ...scan, occurredAt: new Date(scan.occurredAt) }));
}

/**
 * Applies the scans that arrived before the label was recorded (kept as `unknown_parcel`), in
 * the transaction that records the label.
 */
export async function applyWaitingScans(trx: Trx, shipment: ShipmentRow): Promise<number> {
  if (!shipment.tracking_ref) return 0;
  const waiting = await trx
    .selectFrom('carrier_webhook_events')
    .select(['event_id', 'payload'])
    .where('provider', '=', shipment.provider)
    .where('tracking_ref', '=', shipment.tracking_ref)
    .where('outcome', '=', 'unknown_parcel')
    .orderBy('received_at')
    .forUpdate()
    .execute();
  let applied = 0;
  for (const event of waiting) {
    for (const scan of loggedScans(event.payload)) {
      if ((await applyScan(trx, shipment.provider, scan)) === 'applied') applied++;
    }
    await trx
      .updateTable('carrier_webhook_events')
      .set({ outcome: 'applied', applied_at: new Date() })
      .where('provider', '=', shipment.provider)
      .where('event_id', '=', event.event_id)
      .execute();
  }
  return applied;
}
