import { OrderList } from './OrderList.tsx';

/** /account/sales: what the seller has sold. */
export function SalesPage() {
  return <OrderList party="seller" />;
}
