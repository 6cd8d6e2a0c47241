/** /admin/shipping-disputes (staff): parcels that did not arrive (disputes/DisputeQueue.tsx). */
import { DisputeQueue } from './disputes/DisputeQueue.tsx';

export function ShippingDisputesPage() {
  return <DisputeQueue kind="not_received" />;
}
