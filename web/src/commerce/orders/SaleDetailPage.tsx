import { OrderDetail } from './OrderDetail.tsx';

/** /account/sales/:orderId: one of the seller's sales. */
export function SaleDetailPage() {
  return <OrderDetail party="seller" />;
}
