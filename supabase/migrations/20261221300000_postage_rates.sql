-- Postage from the book (issue 37, decision 0083): the commercial setting `postage_bands` (what
-- the buyer paid by the seller's size: small/medium/large) becomes `postage_rates`, the label
-- rate card (pence per band and delivery method; the starting values are DEFAULT_POSTAGE_RATES
-- in packages/contracts/src/parcel-words.ts). Staff edit it on the settings page.
--
-- The old bands priced sizes, not labels, so they do not convert to a rate card: a stored
-- `postage_bands` is replaced by the starting rate card.

-- 1. The setting. ---------------------------------------------------------------------------------
delete from public.settings where key = 'postage_bands';
insert into public.settings (key, value, description)
values (
  'postage_rates',
  '{"large_letter": {"home": 289, "drop_off": 229},
    "small_parcel": {"home": 379, "drop_off": 299},
    "medium_parcel": {"home": 629, "drop_off": 499}}',
  'What a label costs, in pence, by postage band (Large Letter, Small Parcel, Medium Parcel) and delivery method (home delivery or a drop-off point): what the buyer pays for postage.'
)
on conflict (key) do nothing;

-- 2. The demo seed's band for a book on its own: parcelFor([estimateBook(book)]) in
-- parcel-words.ts, for the paperbacks the seed lists (format unset). Kept in step with that rule
-- by seed-function.int.test.ts, which prices every seeded order with it.
create or replace function public.seed_postage_band(p_parcel text, p_pages integer)
returns text
language sql immutable as $$
  with trim_of as (
    select case p_parcel when 'small' then 198 when 'medium' then 240 else 290 end as length_mm,
           case p_parcel when 'small' then 129 when 'medium' then 160 else 230 end as width_mm,
           case when p_pages is not null and p_pages > 0 then least(p_pages, 2000)
                else case p_parcel when 'small' then 320 when 'medium' then 400 else 240 end end as pages,
           case p_parcel when 'large' then 130 else 70 end as gsm
  ), parcel as (
    select length_mm + 10 as length_mm, width_mm + 10 as width_mm,
           round((pages / 2.0) * (length_mm / 1000.0) * (width_mm / 1000.0) * gsm
                 + 12 * ((length_mm / 1000.0) * (width_mm / 1000.0)) / ((198 / 1000.0) * (129 / 1000.0)))
             + 40 as weight_g,
           ceil(pages * 0.06 + 1) + 3 as thickness_mm
    from trim_of
  )
  select case
    when weight_g <= 750 and thickness_mm <= 25 and length_mm <= 353 and width_mm <= 250 then 'large_letter'
    when weight_g <= 2000 and thickness_mm <= 160 and length_mm <= 450 and width_mm <= 350 then 'small_parcel'
    else 'medium_parcel' end
  from parcel
$$;

-- 3. The demo seed prices its sold orders' postage from the rate card (home delivery, as a
-- quote does before the buyer chose), with the band of the book on its own.
create or replace function public.seed_openlibrary_recent(
  p_books jsonb,
  p_people jsonb,
  p_reset boolean default false,
  p_now timestamptz default now()
)
returns table (listings integer, orders integer)
language plpgsql as $$
declare
  book_count constant integer := 40;
  order_count constant integer := 24;
  -- One open dispute among the orders of each period.
  disputed_slots constant integer[] := array[2, 7, 12, 19];
  conditions constant text[] := array['like_new', 'very_good', 'very_good', 'good', 'good', 'well_read'];
  endings constant integer[] := array[0, 49, 50, 99];
  seller_ids uuid[];
  seller_charities uuid[];
  buyer_ids uuid[];
  sellers integer;
  fee_fixed integer := 70;
  fee_percent numeric := 5;
  rates jsonb;
  b record;
  pick integer;
  candidate integer;
  cond text;
  parcel text;
  band text;
  price integer;
  postage integer;
  fee integer;
  new_id uuid;
  order_id uuid;
  buyer uuid;
  period text;
  period_start timestamptz;
  paid timestamptz;
  age interval;
  state text;
  dispute_kind text;
  created_listings integer := 0;
  created_orders integer := 0;
begin
  perform pg_advisory_xact_lock(hashtext('reshelf:seed-openlibrary-recent'));
  if jsonb_typeof(p_books) is distinct from 'array' then
    raise exception 'seed-openlibrary-recent needs an array of books' using errcode = '22023';
  end if;
  if p_reset then
    -- The demo people stay: this call would only make them again, under new ids.
    perform public.seed_openlibrary_reset(true);
  end if;

  -- Forget records of rows that have gone (clean-up or staff removed them): their slots refill.
  delete from public.seed_items s
  where case s.kind
    when 'user' then not exists (select 1 from auth.users u where u.id = s.row_id)
    when 'charity' then not exists (select 1 from public.charities c where c.id = s.row_id)
    when 'book' then not exists (select 1 from public.books x where x.id = s.row_id)
    when 'order' then not exists (select 1 from public.orders o where o.id = s.row_id)
    when 'dispute' then not exists (select 1 from public.disputes d where d.id = s.row_id)
    else not exists (select 1 from public.listings l where l.id = s.row_id)
  end;

  if (select count(*) from public.seed_books_input(p_books, book_count)) < book_count then
    raise exception 'seed-openlibrary-recent needs % different books', book_count using errcode = '22023';
  end if;

  -- People: the demo sellers, charity owners and buyers, created (without a password) when missing.
  with wanted as (
    select distinct on (lower(p ->> 'email')) p ->> 'email' as email, p ->> 'display_name' as display_name
    from jsonb_array_elements(
      coalesce(p_people -> 'sellers', '[]') || coalesce(p_people -> 'charities', '[]')
      || coalesce(p_people -> 'buyers', '[]')) as p
    where p ->> 'email' is not null
  ), created as (
    -- Supabase Auth reads these token columns as strings: a NULL in any of them makes it fail
    -- with "Database error finding user(s)" for every sign-in and admin listing. Only the
    -- embedded backend and a direct call of the Edge Function get here: in hosted mode the BFF
    -- creates the demo people through Auth's admin API first (decision 0032).
    insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at,
                            raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
                            confirmation_token, recovery_token, email_change_token_new, email_change,
                            email_change_token_current, phone_change, phone_change_token,
                            reauthentication_token)
    select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
           w.email, p_now, '{"provider": "email", "providers": ["email"]}',
           jsonb_build_object('display_name', w.display_name), p_now, p_now,
           '', '', '', '', '', '', '', ''
    from wanted w
    where not exists (select 1 from auth.users u where lower(u.email) = lower(w.email))
    returning id
  )
  insert into public.seed_items (kind, row_id) select 'user', id from created;

  -- Their profiles (made by the sign-up trigger) get a town and count as complete.
  update public.profiles pr
  set town = coalesce(pr.town, p.p ->> 'town'), signup_completed_at = coalesce(pr.signup_completed_at, p_now),
      onboarded_at = coalesce(pr.onboarded_at, p_now)
  from public.seed_items s
  join auth.users u on u.id = s.row_id
  join jsonb_array_elements(
    coalesce(p_people -> 'sellers', '[]') || coalesce(p_people -> 'charities', '[]')
    || coalesce(p_people -> 'buyers', '[]')) as p (p) on lower(p.p ->> 'email') = lower(u.email)
  where s.kind = 'user' and pr.id = s.row_id;

  with created as (
    insert into public.charities (slug, name, registered_number, status, town, description, website,
                                  owner_id, approved_at)
    select c ->> 'slug', c ->> 'name', c ->> 'registered_number', 'approved', c ->> 'town',
           c ->> 'description', c ->> 'website', u.id, p_now
    from jsonb_array_elements(coalesce(p_people -> 'charities', '[]')) as c
    join auth.users u on lower(u.email) = lower(c ->> 'email')
    where not exists (select 1 from public.charities x where x.slug = c ->> 'slug')
    on conflict do nothing
    returning id
  )
  insert into public.seed_items (kind, row_id) select 'charity', id from created;

  -- Who sells: private sellers and approved charities (through their owners), interleaved.
  select array_agg(pool.user_id order by pool.pos), array_agg(pool.charity_id order by pool.pos)
  into seller_ids, seller_charities
  from (
    select u.id as user_id, null::uuid as charity_id, s.ord * 3 as pos
    from jsonb_array_elements(coalesce(p_people -> 'sellers', '[]')) with ordinality as s (p, ord)
    join auth.users u on lower(u.email) = lower(s.p ->> 'email')
    union all
    select c.owner_id, c.id, s.ord * 5 - 1
    from jsonb_array_elements(coalesce(p_people -> 'charities', '[]')) with ordinality as s (p, ord)
    join public.charities c on c.slug = s.p ->> 'slug'
    where c.status = 'approved' and c.owner_id is not null
  ) pool;
  select array_agg(u.id order by s.ord) into buyer_ids
  from jsonb_array_elements(coalesce(p_people -> 'buyers', '[]')) with ordinality as s (p, ord)
  join auth.users u on lower(u.email) = lower(s.p ->> 'email');
  sellers := coalesce(cardinality(seller_ids), 0);
  if sellers = 0 or coalesce(cardinality(buyer_ids), 0) = 0 then
    raise exception 'seed-openlibrary-recent needs demo sellers and buyers' using errcode = '22023';
  end if;

  -- Books: found by ISBN-13, or created (with their category and genres) and recorded.
  with input as (
    select * from public.seed_books_input(p_books, book_count)
  ), created as (
    insert into public.books (isbn13, isbn10, title, subtitle, authors, publisher, published_year,
                              page_count, description, cover_url, category_id)
    select i.isbn13, i.isbn10, i.title, i.subtitle, i.authors, i.publisher, i.published_year,
           i.page_count, i.description, i.cover_url,
           (select c.id from public.categories c where c.slug = i.category)
    from input i
    where not exists (select 1 from public.books x where x.isbn13 = i.isbn13)
    on conflict (isbn13) do nothing
    returning id, isbn13
  ), tagged as (
    insert into public.book_genres (book_id, genre_id)
    select c.id, g.id
    from created c
    join input i on i.isbn13 = c.isbn13
    cross join lateral unnest(i.genres) as gs (genre_slug)
    join public.genres g on g.slug = gs.genre_slug
    on conflict do nothing
  )
  insert into public.seed_items (kind, row_id) select 'book', id from created;

  -- Commercial settings: what buyers pay (brief §4), as checkout charges it.
  select coalesce((value ->> 'fixedMinor')::integer, fee_fixed), coalesce((value ->> 'percent')::numeric, fee_percent)
  into fee_fixed, fee_percent
  from public.settings where key = 'buyer_protection';
  fee_fixed := coalesce(fee_fixed, 70);
  fee_percent := coalesce(fee_percent, 5);
  select value into rates from public.settings where key = 'postage_rates';
  if rates is null then
    raise exception 'The commercial setting postage_rates is missing: the seed prices postage from it';
  end if;

  -- 40 listings on sale, one per book, listed over the last few days.
  for b in
    select i.*, x.id as book_id, coalesce(c.slug, '') as category_slug
    from public.seed_books_input(p_books, book_count) i
    join public.books x on x.isbn13 = i.isbn13
    left join public.categories c on c.id = x.category_id
    where not exists (select 1 from public.seed_items s where s.kind = 'listing' and s.slot = i.slot)
    order by i.slot
  loop
    -- Sellers in turn, passing over one who has this book on sale already (clean-up would
    -- remove the copy as a duplicate).
    pick := 1 + (b.slot - 1) % sellers;
    for step in 0 .. sellers - 1 loop
      candidate := 1 + (b.slot - 1 + step) % sellers;
      if not exists (
        select 1 from public.listings l
        where l.status = 'active' and l.book_id = b.book_id and l.seller_id = seller_ids[candidate]
      ) then
        pick := candidate;
        exit;
      end if;
    end loop;
    cond := conditions[1 + (b.slot * 7) % cardinality(conditions)];
    parcel := case
      when b.category_slug = 'cookery' or coalesce(b.page_count, 300) > 600 then 'large'
      when coalesce(b.page_count, 300) > 350 then 'medium'
      else 'small' end;
    price := (case cond when 'like_new' then 700 when 'very_good' then 500 when 'good' then 375 else 225 end
              + round(coalesce(b.page_count, 300) / 100.0)::integer * 40 + (b.slot * 53) % 300) / 100 * 100
             + endings[1 + b.slot % 4];
    new_id := gen_random_uuid();
    insert into public.listings (id, seller_id, charity_id, book_id, slug, status, condition,
                                 condition_notes, description, price_minor, parcel_size, published_at,
                                 created_at)
    values (
      new_id, seller_ids[pick], seller_charities[pick], b.book_id, public.seed_listing_slug(b.title, new_id),
      'active', cond,
      case cond
        when 'like_new' then 'Read once; no marks, no creases.'
        when 'very_good' then 'Light shelf wear to the cover edges; text clean throughout.'
        when 'good' then 'Reading creases to the spine and slight wear to the corners. Text unmarked.'
        else 'Well loved: creased spine and tanned pages, but complete and readable.' end,
      case when seller_charities[pick] is null
        then 'Posted in a padded envelope within two working days.'
        else 'Donated to our shop and checked page by page by our volunteers.' end,
      price, parcel,
      p_now - make_interval(hours => b.slot * 5), p_now - make_interval(hours => b.slot * 5)
    );
    insert into public.seed_items (kind, row_id, slot) values ('listing', new_id, b.slot);
    created_listings := created_listings + 1;
  end loop;

  -- 24 orders, each for a copy of one of the books that is now sold, paid within a period:
  -- 4 today, 6 this month, 6 in the last 30 days, 8 this year. Each period has one dispute.
  for b in
    select g.slot, i.title, x.id as book_id, coalesce(c.slug, '') as category_slug, i.page_count
    from generate_series(1, order_count) as g (slot)
    join public.seed_books_input(p_books, book_count) i on i.slot = 1 + (g.slot * 7) % book_count
    join public.books x on x.isbn13 = i.isbn13
    left join public.categories c on c.id = x.category_id
    where not exists (select 1 from public.seed_items s where s.kind = 'order' and s.slot = g.slot)
    order by g.slot
  loop
    pick := 1 + (b.slot + 2) % sellers;
    buyer := buyer_ids[1 + (b.slot - 1) % cardinality(buyer_ids)];
    if buyer = seller_ids[pick] then
      buyer := buyer_ids[1 + b.slot % cardinality(buyer_ids)];
    end if;
    if buyer = seller_ids[pick] then
      pick := 1 + pick % sellers;
    end if;
    period := case when b.slot <= 4 then 'today' when b.slot <= 10 then 'mtd'
                   when b.slot <= 16 then 'last30' else 'ytd' end;
    select starts_at into period_start from public.admin_period_bounds(period, p_now);
    -- Somewhere inside the period, never at its very edges.
    paid := period_start + (p_now - period_start) * (0.05 + 0.9 * ((b.slot * 0.6180339887) % 1))::float8;
    age := p_now - paid;
    cond := conditions[1 + (b.slot * 5) % cardinality(conditions)];
    parcel := case
      when b.category_slug = 'cookery' or coalesce(b.page_count, 300) > 600 then 'large'
      when coalesce(b.page_count, 300) > 350 then 'medium'
      else 'small' end;
    price := (case cond when 'like_new' then 700 when 'very_good' then 500 when 'good' then 375 else 225 end
              + (b.slot * 71) % 400) / 100 * 100 + endings[1 + (b.slot + 1) % 4];
    band := public.seed_postage_band(parcel, b.page_count);
    postage := (rates -> band ->> 'home')::integer;
    fee := fee_fixed + floor(price * fee_percent / 100 + 0.5)::integer;

    new_id := gen_random_uuid();
    insert into public.listings (id, seller_id, charity_id, book_id, slug, status, condition, description,
                                 price_minor, parcel_size, published_at, created_at)
    values (new_id, seller_ids[pick], seller_charities[pick], b.book_id, public.seed_listing_slug(b.title, new_id),
            'sold', cond, 'Posted in a padded envelope within two working days.', price, parcel,
            paid - make_interval(days => 1 + b.slot % 6), paid - make_interval(days => 1 + b.slot % 6));
    insert into public.seed_items (kind, row_id, slot) values ('sold_listing', new_id, b.slot);

    -- Where the order has got to by now: paid, dispatched the next day, delivered after 3
    -- days, completed after 5; a disputed one was either never delivered or not as described.
    if b.slot = any (disputed_slots) then
      state := 'disputed';
      dispute_kind := case when age >= interval '4 days' then 'item_not_as_described' else 'not_received' end;
    else
      state := case when age >= interval '5 days' then 'completed' when age >= interval '3 days' then 'delivered'
                    when age >= interval '1 day' then 'dispatched' else 'paid' end;
      dispute_kind := null;
    end if;

    insert into public.orders (buyer_id, seller_id, status, item_price_minor, postage_minor,
                               buyer_protection_minor, buyer_protection_vat_minor, total_minor, paid_at,
                               dispatched_at, delivered_at, completed_at, carrier, tracking_ref, created_at)
    values (
      buyer, seller_ids[pick], state, price, postage, fee, public.vat_of_inclusive(fee), price + postage + fee, paid,
      case
        when state = 'disputed' then paid + least(age * 0.3, interval '1 day')
        when age >= interval '1 day' then paid + interval '1 day' end,
      case
        when dispute_kind = 'item_not_as_described' then paid + least(age * 0.6, interval '3 days')
        when state in ('delivered', 'completed') then paid + interval '3 days' end,
      case when state = 'completed' then paid + interval '5 days' end,
      case when state <> 'paid' then 'Royal Mail' end,
      case when state <> 'paid' then 'RM' || lpad(((b.slot * 7919) % 1000000000)::text, 9, '0') || 'GB' end,
      paid - interval '4 minutes'
    )
    returning id into order_id;
    -- Its one book (the order names its books only in order_items, decision 0051).
    insert into public.order_items (order_id, listing_id, position, price_minor, protection_minor)
    values (order_id, new_id, 1, price, fee);
    insert into public.seed_items (kind, row_id, slot) values ('order', order_id, b.slot);
    created_orders := created_orders + 1;

    if dispute_kind is not null then
      insert into public.disputes (order_id, opened_by, kind, reason, opened_at)
      values (
        order_id, buyer, dispute_kind,
        case dispute_kind
          when 'not_received' then 'The tracking has not moved for days and the book has not arrived.'
          else 'The listing said very good, but the spine is broken and several pages are loose.' end,
        paid + least(age * 0.8, interval '4 days')
      )
      returning id into new_id;
      insert into public.seed_items (kind, row_id) values ('dispute', new_id);
    end if;
  end loop;

  listings := created_listings;
  orders := created_orders;
  return next;
end;
$$;
