/**
 * Which wants a copy of an edition is for (decision 0088): the SQL that answers "does this
 * want's target cover this edition?", in one place for the matcher, a member's list of wants and
 * the demand shown to sellers. An edition want covers its `books` row or its ISBN; a work want
 * every edition of the work; a series want every edition of the series' works that the member
 * has not got (bought on Reshelf, or in `member_books`).
 */
import { type RawBuilder, sql } from 'kysely';

/**
 * Whether the member (`userId`: a SQL expression) has the work (`workId`: a SQL expression): the
 * database's one definition, `public.member_has_work` (bought on Reshelf, or in `member_books`).
 */
export function memberHasWork(userId: RawBuilder<unknown>, workId: RawBuilder<unknown>) {
  return sql`public.member_has_work(${userId}, ${workId})`;
}

/**
 * The wants whose target covers the edition `b` (a `books` row alias) of the work `wk` (a
 * `works` alias, left-joined: null when the edition has no work), as a lateral sub-select of
 * want ids named `covering(want_id)`. Each branch reads one of the wants' indexes.
 */
export const COVERING_WANTS = sql`lateral (
    select w.id as want_id from public.wants w where w.book_id = b.id
    union
    select w.id from public.wants w where b.isbn13 is not null and w.isbn13 = b.isbn13
    union
    select w.id from public.wants w where b.work_id is not null and w.work_id = b.work_id
    union
    select w.id from public.wants w
      where wk.series_id is not null and w.series_id = wk.series_id
        and not ${memberHasWork(sql.ref('w.user_id'), sql.ref('wk.id'))}
  ) covering`;

/**
 * The active listings a want (`w`, a `wants` alias) covers, as a lateral sub-select of listing
 * ids named `covered(listing_id)`: the member's own listings never.
 */
export const COVERED_LISTINGS = sql`lateral (
    select l.id as listing_id from public.listings l
    where l.status = 'active' and l.seller_id <> w.user_id and l.book_id in (
      select b.id from public.books b where w.kind = 'edition' and (b.id = w.book_id or b.isbn13 = w.isbn13)
      union
      select b.id from public.books b where w.kind = 'work' and b.work_id = w.work_id
      union
      select b.id from public.books b join public.works wk on wk.id = b.work_id
        where w.kind = 'series' and wk.series_id = w.series_id
          and not ${memberHasWork(sql.ref('w.user_id'), sql.ref('wk.id'))}
    )
  ) covered`;
