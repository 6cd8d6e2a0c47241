-- Server functions of the admin dashboard (spec §7), written once in SQL and called by
-- both the in-process adapter (embedded backend) and the Edge Functions (hosted).

alter table public.orders add column refunded_at timestamptz;
create index orders_refunded_at_idx on public.orders (refunded_at) where refunded_at is not null;

-- Period bounds in Europe/London time, so month and year starts and BST are right.
--   today   local midnight today .. now
--   mtd     local midnight on the 1st of this month .. now
--   last30  local midnight 29 days ago (30 calendar days including today) .. now
--   ytd     local midnight on 1 January .. now
create or replace function public.admin_period_bounds(p_period text, p_now timestamptz default now())
returns table (starts_at timestamptz, ends_at timestamptz)
language plpgsql stable as $$
declare
  local_now timestamp := p_now at time zone 'Europe/London';
begin
  starts_at := case p_period
    when 'today' then date_trunc('day', local_now) at time zone 'Europe/London'
    when 'mtd' then date_trunc('month', local_now) at time zone 'Europe/London'
    when 'last30' then (date_trunc('day', local_now) - interval '29 days') at time zone 'Europe/London'
    when 'ytd' then date_trunc('year', local_now) at time zone 'Europe/London'
  end;
  if starts_at is null then
    raise exception 'Unknown period "%": use today, mtd, last30 or ytd', p_period
      using errcode = '22023';
  end if;
  ends_at := p_now;
  return next;
end;
$$;

-- The dashboard's three cards. Open disputes and active listings are counts now; buyer
-- protection is the fee on orders paid in the period, less the fee on orders refunded in it.
create or replace function public.admin_metrics(p_period text, p_now timestamptz default now())
returns table (disputes_open integer, active_listings integer, buyer_protection_minor integer)
language sql stable as $$
  with bounds as (select * from public.admin_period_bounds(p_period, p_now))
  select
    (select count(*)::int from public.disputes where status = 'open'),
    (select count(*)::int from public.listings where status = 'active'),
    (
      coalesce((select sum(o.buyer_protection_minor) from public.orders o, bounds b
                where o.paid_at >= b.starts_at and o.paid_at < b.ends_at), 0)
      - coalesce((select sum(o.buyer_protection_minor) from public.orders o, bounds b
                  where o.refunded_at >= b.starts_at and o.refunded_at < b.ends_at), 0)
    )::int
$$;

-- Removes duplicate listings (same seller and book among live ones: the oldest stays) and
-- live listings with no image at all (no photo and no cover). A listing with an order is
-- never deleted, only marked removed, so no order loses its listing. Atomic: one statement.
create or replace function public.admin_cleanup_listings()
returns table (duplicates_removed integer, no_image_removed integer, total_deleted integer)
language plpgsql as $$
declare
  dupes uuid[];
  imageless uuid[];
begin
  select coalesce(array_agg(id), '{}') into dupes from (
    select l.id, row_number() over (partition by l.seller_id, l.book_id order by l.created_at, l.id) as n
    from public.listings l
    where l.status = 'active' and l.book_id is not null
  ) ranked where n > 1;

  select coalesce(array_agg(l.id), '{}') into imageless
  from public.listings l
  left join public.books b on b.id = l.book_id
  where l.status = 'active'
    and jsonb_array_length(l.photos) = 0
    and b.cover_url is null
    and l.id <> all (dupes);

  update public.listings l
  set status = 'removed',
      removed_reason = case when l.id = any (dupes) then 'Duplicate listing removed by clean-up'
                            else 'Listing without an image removed by clean-up' end
  where l.id = any (dupes || imageless)
    and exists (select 1 from public.orders o where o.listing_id = l.id);

  delete from public.listings l
  where l.id = any (dupes || imageless)
    and not exists (select 1 from public.orders o where o.listing_id = l.id);

  duplicates_removed := cardinality(dupes);
  no_image_removed := cardinality(imageless);
  total_deleted := duplicates_removed + no_image_removed;
  return next;
end;
$$;

revoke all on function public.admin_metrics(text, timestamptz) from public, anon, authenticated;
revoke all on function public.admin_cleanup_listings() from public, anon, authenticated;
grant execute on function public.admin_metrics(text, timestamptz) to service_role;
grant execute on function public.admin_cleanup_listings() to service_role;
