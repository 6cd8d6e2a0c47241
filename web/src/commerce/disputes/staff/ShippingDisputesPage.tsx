/** /admin/shipping-disputes (staff): parcels that did not arrive (disputes/DisputeQueue.tsx). */
import { DisputeQueue } from './DisputeQueue.tsx';

export function ShippingDisputesPage() {
  return <DisputeQueue kind="not_received" />;
}
