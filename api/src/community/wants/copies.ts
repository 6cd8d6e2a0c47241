/**
 * A listing as a want sees it (contracts' CopyForWant): its own attributes and its all-in price,
 * the shown price under the live settings exactly as saved searches and the listing page compute
 * it (decision 0071: COMMERCIAL_SETTINGS_SQL read in the same statement).
 */
import {
  type BookFormat,
  type Condition,
  type CopyForWant,
  type DustJacketState,
  type ParcelSize,
  type ShownPrice,
  shownPrice,
  type WantConditions,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import {
  COMMERCIAL_SETTINGS_SQL,
  commercialSettingsFromText,
} from '../../platform/settings/settings.service.ts';

/** The columns copyOf reads, from `l` (listings) and `b` (books). */
export const COPY_COLUMNS = sql`l.condition, l.format, l.first_edition, l.signed, l.dust_jacket,
  l.print_on_demand, l.book_club, l.price_minor, l.parcel_size, b.page_count,
  ${sql.raw(COMMERCIAL_SETTINGS_SQL)} as settings`;

export interface CopyRow {
  condition: Condition;
  format: BookFormat | null;
  first_edition: boolean;
  signed: boolean;
  dust_jacket: DustJacketState | null;
  print_on_demand: boolean;
  book_club: boolean;
  price_minor: number;
  parcel_size: ParcelSize;
  page_count: number | null;
  settings: string | null;
}

export function shownOf(row: CopyRow): ShownPrice {
  return shownPrice(
    {
      priceMinor: row.price_minor,
      parcelSize: row.parcel_size,
      format: row.format,
      pageCount: row.page_count,
    },
    commercialSettingsFromText(row.settings),
  );
}

export function copyOf(row: CopyRow): CopyForWant {
  return {
    condition: row.condition,
    format: row.format,
    firstEdition: row.first_edition,
    signed: row.signed,
    dustJacket: row.dust_jacket,
    printOnDemand: row.print_on_demand,
    bookClub: row.book_club,
    allInMinor: shownOf(row).allInMinor,
  };
}

/**
 * The columns of a want's conditions, from `w` (wants), named apart from a copy's own
 * (`want_signed` beside the listing's `signed`), as contracts' WantConditions.
 */
export const CONDITION_COLUMNS = sql`w.first_edition as want_first_edition, w.signed as want_signed,
  w.dust_jacket as want_dust_jacket, w.min_condition as want_min_condition,
  w.max_all_in_minor as want_max_all_in_minor, w.format as want_format,
  w.no_print_on_demand as want_no_print_on_demand, w.no_book_club as want_no_book_club`;

export interface ConditionRow {
  want_first_edition: boolean;
  want_signed: boolean;
  want_dust_jacket: boolean;
  want_min_condition: Condition | null;
  want_max_all_in_minor: number | null;
  want_format: BookFormat | null;
  want_no_print_on_demand: boolean;
  want_no_book_club: boolean;
}

export function conditionsOf(row: ConditionRow): WantConditions {
  return {
    firstEdition: row.want_first_edition,
    signed: row.want_signed,
    dustJacket: row.want_dust_jacket,
    minCondition: row.want_min_condition,
    maxAllInMinor: row.want_max_all_in_minor,
    format: row.want_format,
    noPrintOnDemand: row.want_no_print_on_demand,
    noBookClub: row.want_no_book_club,
  };
}
