/** /admin/disputes (staff): buyers who say the book is not as described (disputes/DisputeQueue.tsx). */
import { DisputeQueue } from './DisputeQueue.tsx';

export function DisputesPage() {
  return <DisputeQueue kind="item_not_as_described" />;
}
