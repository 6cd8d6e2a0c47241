-- Admin operations (issue 9): promotions, the discount codes besides the built-in WELCOME20
-- first-order gift, managed at /admin/promotions. A code takes a percentage (1-90) or a fixed
-- amount in pence off the item, optionally above a minimum item price, between two times,
-- up to a total and a per-buyer number of uses. Uses are counted from the orders that carry
-- the promotion (decision 0019), so there is no counter to drift. Only the BFF reads it.

create table public.promotions (
  id uuid primary key default gen_random_uuid(),
  code citext not null unique
    check (code::text ~ '^[A-Z0-9]{3,20}$' and upper(code::text) <> 'WELCOME20'),
  kind text not null check (kind in ('percent', 'fixed')),
  percent_off integer check (percent_off between 1 and 90),
  amount_off_minor integer check (amount_off_minor between 1 and 100000),
  min_item_minor integer check (min_item_minor between 1 and 10000000),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  total_limit integer check (total_limit between 1 and 1000000),
  per_buyer_limit integer not null default 1 check (per_buyer_limit between 1 and 100),
  active boolean not null default true,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint promotions_ends_after_starts check (ends_at > starts_at),
  constraint promotions_one_amount check (
    (kind = 'percent' and percent_off is not null and amount_off_minor is null)
    or (kind = 'fixed' and amount_off_minor is not null and percent_off is null)
  )
);
create trigger promotions_touch before update on public.promotions
  for each row execute function public.touch_updated_at();

-- Staff only, through the BFF (which connects as the owner): no policies for anon or users.
alter table public.promotions enable row level security;

-- An order names the promotion it used; discount_code keeps the code as the buyer saw it.
alter table public.orders
  add column promotion_id uuid references public.promotions (id) on delete restrict,
  drop constraint orders_discount_code_check,
  add constraint orders_discount_code_check check (discount_code ~ '^[A-Z0-9]{3,20}$'),
  add constraint orders_promotion_has_code check (promotion_id is null or discount_code is not null);
create index orders_promotion_idx on public.orders (promotion_id, buyer_id) where promotion_id is not null;
