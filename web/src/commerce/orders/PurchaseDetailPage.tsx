import { OrderDetail } from './OrderDetail.tsx';

/** /account/orders/:orderId: one of the buyer's orders. */
export function PurchaseDetailPage() {
  return <OrderDetail party="buyer" />;
}
