-- What a member has of a work, in one place (issue 38, decisions 0088 and 0089): a copy of any
-- of its editions bought on Reshelf (an order item that is live, i.e. its order not cancelled or
-- refunded, on an order past payment), or the work in their own `member_books` (a reading
-- list's shelf they chose, or "I have this"). "Complete the set", the series wants and the
-- reading-list export read these, and nothing else decides it.

create or replace function public.member_bought_work(p_user uuid, p_work uuid) returns boolean
language sql stable parallel safe
set search_path = public, pg_catalog
as $$
  select exists (
    select 1 from public.order_items oi
      join public.orders o on o.id = oi.order_id
      join public.listings l on l.id = oi.listing_id
      join public.books b on b.id = l.book_id
    where o.buyer_id = p_user and oi.live and o.status <> 'pending_payment' and b.work_id = p_work)
$$;

create or replace function public.member_has_work(p_user uuid, p_work uuid) returns boolean
language sql stable parallel safe
set search_path = public, pg_catalog
as $$
  select exists (select 1 from public.member_books mb where mb.user_id = p_user and mb.work_id = p_work)
      or public.member_bought_work(p_user, p_work)
$$;
