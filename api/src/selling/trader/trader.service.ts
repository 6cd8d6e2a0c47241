/**
 * A member says whether they sell as a trade (decision 0073). A business seller gives the
 * details a trader must show before the order (contracts business-sellers.ts); from then on their
 * listings show them with the cancellation rights, and their buyers may cancel as a charity's
 * may. A member may say they sell privately instead. Nothing switches on its own: a member who
 * sells often (close to the platform-reporting threshold, reporting.ts `shouldAskForDetails`) and
 * has not answered is prompted in their selling settings.
 */
import {
  type BusinessSeller,
  type BusinessSellerDetails,
  shouldAskForDetails,
  type TraderStatus,
} from '@reshelf/contracts';
import type { Selectable } from 'kysely';
import { ukYear, yearTotals } from '../../commerce/index.ts';
import type { SellerTradeDeclarations } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';

type Row = Selectable<SellerTradeDeclarations>;

function toBusiness(row: Row): BusinessSeller | null {
  if (
    !row.trades ||
    !row.trading_name ||
    !row.address_line1 ||
    !row.town ||
    !row.postcode ||
    !row.contact_email
  )
    return null;
  return {
    tradingName: row.trading_name,
    isCompany: row.is_company ?? false,
    companyNumber: row.company_number,
    vatNumber: row.vat_number,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    town: row.town,
    postcode: row.postcode,
    contactEmail: row.contact_email,
    declaredAt: row.declared_at.toISOString(),
  };
}

/** A member's declaration, as their settings and staff read it. */
export async function businessSellerOf(db: Database, userId: string): Promise<BusinessSeller | null> {
  const row = await db
    .selectFrom('seller_trade_declarations')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toBusiness(row) : null;
}

/** Where the member stands, and whether to ask them (they sell often and have not said). */
export async function traderStatus(db: Database, userId: string, now = new Date()): Promise<TraderStatus> {
  const row = await db
    .selectFrom('seller_trade_declarations')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (row) {
    return {
      answer: row.trades ? 'business' : 'private',
      business: toBusiness(row),
      prompt: false,
      answeredAt: row.declared_at.toISOString(),
    };
  }
  const totals = await yearTotals(db, userId, ukYear(now));
  return {
    answer: 'unanswered',
    business: null,
    prompt: shouldAskForDetails(totals.sales, totals.considerationMinor),
    answeredAt: null,
  };
}

/** The member sells as a trade, with these details (replacing any earlier answer). */
export async function declareBusinessSeller(
  db: Database,
  userId: string,
  details: BusinessSellerDetails,
): Promise<TraderStatus> {
  const values = {
    trades: true,
    trading_name: details.tradingName,
    is_company: details.isCompany,
    company_number: details.companyNumber,
    vat_number: details.vatNumber,
    address_line1: details.addressLine1,
    address_line2: details.addressLine2,
    town: details.town,
    postcode: details.postcode,
    contact_email: details.contactEmail,
    declared_at: new Date(),
  };
  await db
    .insertInto('seller_trade_declarations')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  return traderStatus(db, userId);
}

/** The member sells privately (not as a trade): their listings say so; the settings stop asking. */
export async function declarePrivateSeller(db: Database, userId: string): Promise<TraderStatus> {
  const values = {
    trades: false,
    trading_name: null,
    is_company: null,
    company_number: null,
    vat_number: null,
    address_line1: null,
    address_line2: null,
    town: null,
    postcode: null,
    contact_email: null,
    declared_at: new Date(),
  };
  await db
    .insertInto('seller_trade_declarations')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
  return traderStatus(db, userId);
}
