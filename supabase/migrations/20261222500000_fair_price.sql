-- A fair price from Reshelf's own sales (issue 38, decision 0091).
--
-- fair_price_sales is the one definition of "a sale" the estimator reads: a book sold in an
-- order that was paid and is not cancelled or refunded (order_items.live), nothing of it given
-- back, at the book's own price (order_items.price_minor: without postage or Buyer Protection;
-- for an accepted offer, the offer's amount apportioned), plus the demo's earlier sales history
-- (sales_history), which is the record of sales from before the demo's own orders begin.

create table public.sales_history (
  id bigint generated always as identity primary key,
  book_id uuid not null references public.books (id) on delete cascade,
  condition text not null check (condition in ('like_new', 'very_good', 'good', 'well_read')),
  format text,
  category_id uuid references public.categories (id) on delete set null,
  price_minor integer not null check (price_minor > 0),
  sold_at timestamptz not null,
  charity boolean not null default false,
  -- Where the row came from: only the demo writes here ('demo').
  source text not null default 'demo' check (source in ('demo'))
);
create index sales_history_book_idx on public.sales_history (book_id, condition, sold_at desc);
create index sales_history_format_idx on public.sales_history (format, category_id, sold_at desc);
alter table public.sales_history enable row level security;

create or replace view public.fair_price_sales with (security_invoker = true) as
  select l.book_id, b.work_id, l.condition, l.format, coalesce(l.category_id, b.category_id) as category_id,
         i.price_minor, o.paid_at as sold_at, (l.charity_id is not null) as charity
    from public.order_items i
    join public.orders o on o.id = i.order_id
    join public.listings l on l.id = i.listing_id
    left join public.books b on b.id = l.book_id
   where i.live and i.refunded_minor = 0 and o.paid_at is not null
     and o.status in ('paid', 'dispatched', 'delivered', 'completed')
     and l.condition is not null
  union all
  select h.book_id, b.work_id, h.condition, h.format, coalesce(h.category_id, b.category_id),
         h.price_minor, h.sold_at, h.charity
    from public.sales_history h
    join public.books b on b.id = h.book_id;
revoke all on public.fair_price_sales from anon, authenticated;
