/**
 * What a return label's scans do (issue 37, decision 0083): registered as the 'return'
 * direction's effect (`onScan`), run in the scan's transaction once per scan newly recorded. A
 * dispute's return and a change-of-mind return each move on their own service's one path: the
 * first scan is "sent back", "delivered" is "it came back" and refunds, a failed delivery or a
 * parcel returned to the buyer tells both sides.
 */
import type { CarrierNetwork, ScanStatus } from '@reshelf/contracts';
import { type DisputeDeps, disputeReturnScanned } from '../disputes/disputes.service.ts';
import { changeOfMindReturnScanned } from '../disputes/returns.service.ts';
import { onScan } from './carrier-webhooks.ts';
import type { ReturnParcelScan } from './returns.ts';

/** Installs the return direction's effect with the deps its refunds and emails need (app start). */
export function registerReturnScans(deps: DisputeDeps): void {
  onScan('return', async (trx, { shipment, scan, before, after }) => {
    if (!shipment.tracking_ref) return;
    const parcel: ReturnParcelScan = {
      shipmentId: shipment.id,
      disputeId: shipment.dispute_id,
      returnRequestId: shipment.return_request_id,
      network: shipment.network as CarrierNetwork,
      trackingRef: shipment.tracking_ref,
      occurredAt: scan.occurredAt,
      before,
      after: after as ScanStatus,
    };
    if (parcel.disputeId) await disputeReturnScanned(trx, deps, parcel);
    else await changeOfMindReturnScanned(trx, deps, parcel);
  });
}
