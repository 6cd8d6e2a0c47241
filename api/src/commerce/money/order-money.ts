/**
 * An order's money as every surface reads it: the `order_money` view (the money definitions,
 * decision 0051) for many orders in one query. Pages, emails, notifications, statements, the
 * staff tools and the exports take their figures from here, never from the order row's columns.
 */
import type { OrderMoney, SellerMoney } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

export interface OrderMoneyFacts {
  buyer: OrderMoney;
  seller: SellerMoney;
  /** What Reshelf keeps of the order: protection less what went back, less the discount it funds. */
  platformNetMinor: number;
  protectionRefundedMinor: number;
  discountReturnedMinor: number;
  payoutStatus: string | null;
}

interface Row {
  order_id: string;
  books: number;
  items_minor: number;
  bundle_discount_minor: number;
  discount_minor: number;
  postage_minor: number;
  protection_minor: number;
  protection_vat_minor: number;
  total_minor: number;
  refunded_minor: number;
  refundable_minor: number;
  buyer_net_minor: number;
  seller_earnings_minor: number;
  seller_taken_back_minor: number;
  seller_net_minor: number;
  seller_label_minor: number;
  payout_status: string | null;
  protection_refunded_minor: number;
  discount_returned_minor: number;
  platform_net_minor: number;
}

function toFacts(row: Row): OrderMoneyFacts {
  return {
    buyer: {
      books: row.books,
      itemsMinor: row.items_minor,
      bundleDiscountMinor: row.bundle_discount_minor,
      discountMinor: row.discount_minor,
      postageMinor: row.postage_minor,
      protectionMinor: row.protection_minor,
      protectionVatMinor: row.protection_vat_minor,
      totalMinor: row.total_minor,
      refundedMinor: row.refunded_minor,
      refundableMinor: row.refundable_minor,
      buyerNetMinor: row.buyer_net_minor,
    },
    seller: {
      earningsMinor: row.seller_earnings_minor,
      takenBackMinor: row.seller_taken_back_minor,
      netMinor: row.seller_net_minor,
      labelMinor: row.seller_label_minor,
    },
    platformNetMinor: row.platform_net_minor,
    protectionRefundedMinor: row.protection_refunded_minor,
    discountReturnedMinor: row.discount_returned_minor,
    payoutStatus: row.payout_status,
  };
}

/** The money of these orders, by order id (orders that do not exist are absent). */
export async function orderMoney(
  db: Database | Transaction<DB>,
  orderIds: readonly string[],
): Promise<Map<string, OrderMoneyFacts>> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return new Map();
  const { rows } = await sql<Row>`
    select m.order_id, m.books, m.items_minor, m.bundle_discount_minor, m.discount_minor, m.postage_minor,
           m.protection_minor, m.protection_vat_minor, m.total_minor, m.refunded_minor, m.refundable_minor,
           m.buyer_net_minor, m.seller_earnings_minor, m.seller_taken_back_minor, m.seller_net_minor,
           m.payout_status, m.protection_refunded_minor, m.discount_returned_minor, m.platform_net_minor,
           m.seller_label_minor
      from public.order_money m
     where m.order_id = any(${sql.val(ids)}::uuid[])`.execute(db);
  return new Map(rows.map((row) => [row.order_id, toFacts(row)]));
}

/** One order's money; throws when the order does not exist (the caller found it already). */
export async function orderMoneyOf(
  db: Database | Transaction<DB>,
  orderId: string,
): Promise<OrderMoneyFacts> {
  const facts = (await orderMoney(db, [orderId])).get(orderId);
  if (!facts) throw new Error(`No order ${orderId}`);
  return facts;
}
