/**
 * Who sells a listing as a trader (decision 0073): the listing's charity, else its seller when
 * they declared they sell as a trade (seller_trade_declarations); else nobody, a private seller.
 * The one place a trader's details are read for a buyer: the listing page, checkout (a book, an
 * offer, a basket's groups), the order confirmation and the returns flow all ask here.
 */
import { type Trader, traderAddress } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

/** The columns TRADER_COLUMNS adds to a row. */
export interface TraderRow {
  trader_charity_name: string | null;
  trader_charity_number: string | null;
  trader_charity_line1: string | null;
  trader_charity_line2: string | null;
  trader_charity_town: string | null;
  trader_charity_postcode: string | null;
  trader_charity_email: string | null;
  trader_name: string | null;
  trader_is_company: boolean | null;
  trader_company_number: string | null;
  trader_vat_number: string | null;
  trader_line1: string | null;
  trader_line2: string | null;
  trader_town: string | null;
  trader_postcode: string | null;
  trader_email: string | null;
}

/** A row's trader (TRADER_COLUMNS), or null for a private seller. */
export function traderFromRow(row: TraderRow): Trader | null {
  if (row.trader_charity_name) {
    return {
      kind: 'charity',
      name: row.trader_charity_name,
      address: traderAddress({
        addressLine1: row.trader_charity_line1,
        addressLine2: row.trader_charity_line2,
        town: row.trader_charity_town,
        postcode: row.trader_charity_postcode,
      }),
      registration: row.trader_charity_number
        ? { label: 'Registered charity number', number: row.trader_charity_number }
        : null,
      vatNumber: null,
      email: row.trader_charity_email,
    };
  }
  if (row.trader_name) {
    return {
      kind: 'business',
      name: row.trader_name,
      address: traderAddress({
        addressLine1: row.trader_line1,
        addressLine2: row.trader_line2,
        town: row.trader_town,
        postcode: row.trader_postcode,
      }),
      registration:
        row.trader_is_company && row.trader_company_number
          ? { label: 'Company number', number: row.trader_company_number }
          : null,
      vatNumber: row.trader_vat_number,
      email: row.trader_email,
    };
  }
  return null;
}

/**
 * The trader's columns, over a listing aliased `l`, with TRADER_JOINS in the statement's from
 * clause (aliases `tr_c`, `tr_d`): a statement that already reads the listing (the listing page)
 * reads its trader without a second round trip.
 */
export const TRADER_COLUMNS = `tr_c.name as trader_charity_name, tr_c.registered_number as trader_charity_number,
  tr_c.address_line1 as trader_charity_line1, tr_c.address_line2 as trader_charity_line2,
  tr_c.town as trader_charity_town, tr_c.postcode as trader_charity_postcode,
  tr_c.contact_email as trader_charity_email,
  tr_d.trading_name as trader_name, tr_d.is_company as trader_is_company,
  tr_d.company_number as trader_company_number, tr_d.vat_number as trader_vat_number,
  tr_d.address_line1 as trader_line1, tr_d.address_line2 as trader_line2, tr_d.town as trader_town,
  tr_d.postcode as trader_postcode, tr_d.contact_email as trader_email`;

/** The joins TRADER_COLUMNS reads (a listing's charity; else its seller's trade declaration). */
export const TRADER_JOINS = `left join public.charities tr_c on tr_c.id = l.charity_id
  left join public.seller_trade_declarations tr_d
    on tr_d.user_id = l.seller_id and tr_d.trades and l.charity_id is null`;

/** Each listing's trader, or null for a private seller's (a listing not found is left out). */
export async function tradersOfListings(
  db: Database | Transaction<DB>,
  listingIds: readonly string[],
): Promise<Map<string, Trader | null>> {
  const result = new Map<string, Trader | null>();
  if (listingIds.length === 0) return result;
  const { rows } = await sql<TraderRow & { listing_id: string }>`
    select l.id as listing_id, ${sql.raw(TRADER_COLUMNS)}
    from public.listings l
    ${sql.raw(TRADER_JOINS)}
    where l.id = any (${[...listingIds]}::uuid[])`.execute(db);
  for (const row of rows) result.set(row.listing_id, traderFromRow(row));
  return result;
}

/** One listing's trader, or null (a private seller, or no such listing). */
export async function traderOfListing(
  db: Database | Transaction<DB>,
  listingId: string,
): Promise<Trader | null> {
  return (await tradersOfListings(db, [listingId])).get(listingId) ?? null;
}
