import { OrderList } from './OrderList.tsx';

/** /account/orders: what the buyer has bought. */
export function PurchasesPage() {
  return <OrderList party="buyer" />;
}
