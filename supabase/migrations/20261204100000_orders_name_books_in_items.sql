-- Decision 0051 finishes decision 0043: an order names its books only in order_items, so
-- orders.listing_id (its first book, kept while readers moved) goes, and with it the index that
-- kept one live order per first book (order_items_one_live_per_listing keeps every book's) and
-- the trigger that made a one-book order's item from it. An order still has at least one book:
-- checked at commit. The seed function writes its orders' one book itself, and their
-- protection VAT (it wrote 0): `vat_of_inclusive` is vatOfInclusive in
-- packages/contracts/src/money.ts, held together by api/src/commerce/money/amounts.int.test.ts.

create function public.vat_of_inclusive(gross integer, rate_percent integer default 20) returns integer
  language sql immutable parallel safe
  set search_path = ''
as $$
  -- Half up, as divideRoundHalfUp: floor((2·a + b) / 2b) for a = gross·rate, b = 100 + rate.
  select ((2 * gross * rate_percent + (100 + rate_percent)) / (2 * (100 + rate_percent)))::integer
$$;

-- 1. At commit: an order has at least one book.
drop trigger orders_have_items on public.orders;
drop function public.orders_fill_single_item();
create function public.orders_need_items()
returns trigger language plpgsql as $$
begin
  if exists (select 1 from public.orders where id = new.id)
     and not exists (select 1 from public.order_items where order_id = new.id) then
    raise exception 'order % has no books', new.reference using errcode = '23514';
  end if;
  return null;
end;
$$;
create constraint trigger orders_have_items after insert on public.orders
  deferrable initially deferred
  for each row execute function public.orders_need_items();

-- 2. The items add up to the order (no first-book check: there is no first-book column).
create or replace function public.order_items_add_up()
returns trigger language plpgsql as $$
declare
  target uuid := coalesce(new.order_id, old.order_id);
  o public.orders%rowtype;
  sums record;
begin
  select * into o from public.orders where id = target;
  if not found then return null; end if;
  select count(*) as n, coalesce(sum(price_minor), 0) as price, coalesce(sum(bundle_discount_minor), 0) as bundle,
         coalesce(sum(discount_minor), 0) as discount, coalesce(sum(protection_minor), 0) as protection
    into sums from public.order_items where order_id = target;
  if sums.n = 0 then
    raise exception 'order % has no items', o.reference using errcode = '23514';
  end if;
  if sums.price <> o.item_price_minor or sums.bundle <> o.bundle_discount_minor
     or sums.discount <> o.discount_minor or sums.protection <> o.buyer_protection_minor then
    raise exception 'the items of order % do not add up to the order', o.reference using errcode = '23514';
  end if;
  return null;
end;
$$;

-- 3. The seed's orders: their item is written with them; the rest of their money as before,
-- the seller's earnings from the money definitions (order_money).
create or replace function public.seed_order_money()
returns trigger language plpgsql as $$
declare
  o public.orders%rowtype;
begin
  if new.kind <> 'order' then return new; end if;
  select * into o from public.orders where id = new.row_id;
  if not found or o.paid_at is null then return new; end if;
  update public.orders set
    dispatch_by = o.paid_at + interval '7 days',
    delivery_due_at = case when o.dispatched_at is not null then o.dispatched_at + interval '3 days' end,
    complete_after = case when o.delivered_at is not null then o.delivered_at + interval '2 days' end,
    charity_sale = exists (select 1 from public.order_items i join public.listings l on l.id = i.listing_id
                            where i.order_id = o.id and l.charity_id is not null)
  where id = o.id;
  insert into public.payments (order_id, provider, provider_ref, amount_minor, status, created_at)
  values (o.id, 'test', 'seed_' || replace(o.id::text, '-', ''), o.total_minor, 'succeeded', o.paid_at)
  on conflict (provider, provider_ref, order_id) do nothing;
  insert into public.payouts (seller_id, order_id, amount_minor, status, released_at, created_at)
  select o.seller_id, o.id, m.seller_earnings_minor,
         case when o.status = 'completed' then 'released' else 'held' end, o.completed_at, o.paid_at
    from public.order_money m where m.order_id = o.id
  on conflict (order_id) do nothing;
  insert into public.order_events (order_id, from_status, to_status, actor_kind, note, created_at)
  values (o.id, null, 'paid', 'system', 'Demo order from the seed', o.paid_at);
  return new;
end;
$$;

-- 4. The seed function, its orders written with their book and VAT.
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
  bands jsonb := '{}'::jsonb;
  b record;
  pick integer;
  candidate integer;
  cond text;
  parcel text;
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
  select value into bands from public.settings where key = 'postage_bands';
  bands := coalesce(bands, '{}'::jsonb);

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
    postage := coalesce((bands ->> parcel)::integer,
                        case parcel when 'small' then 299 when 'medium' then 399 else 549 end);
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

-- 5. The clean-up's "had an order" asks the books of orders.
create or replace function public.admin_cleanup_listings(
  p_dry_run boolean,
  p_actor uuid,
  p_expected text default null,
  p_sample integer default 5
)
returns table (
  duplicates_removed integer,
  no_image_removed integer,
  total_deleted integer,
  digest text,
  sample jsonb,
  listing_ids uuid[],
  run_id uuid
)
language plpgsql as $$
declare
  duplicate_reason constant text :=
    'Withdrawn by our clean-up: a duplicate of another of your listings of this book (same condition, notes and price)';
  no_image_reason constant text :=
    'Withdrawn by our clean-up: the listing has no photo and its book has no cover image';
  chosen_ids uuid[];
  chosen_rules text[];
  set_digest text;
  actor_email text;
  run uuid;
begin
  if p_dry_run is null then
    raise exception 'admin_cleanup_listings: say whether this is a dry run' using errcode = '22023';
  end if;
  if not p_dry_run then
    if p_actor is null then
      raise exception 'admin_cleanup_listings: a run needs the admin who runs it' using errcode = '22023';
    end if;
    -- Runs take turns: a second admin pressing at the same moment finds the set changed.
    perform pg_advisory_xact_lock(hashtext('reshelf:admin-cleanup-listings'));
  end if;

  with live as (
    select l.id, l.seller_id, l.book_id, l.condition, l.ex_library, l.price_minor, l.charity_id,
           lower(btrim(coalesce(l.condition_notes, ''))) as notes, l.created_at, l.photos,
           b.cover_url,
           (select r.import_id from public.charity_import_rows r where r.listing_id = l.id limit 1) as import_id,
           exists (select 1 from public.order_items i where i.listing_id = l.id) as had_order
    from public.listings l
    left join public.books b on b.id = l.book_id
    where l.status = 'active'
  ), marked as (
    select live.*,
           -- Never taken: a listing someone has ordered (a sale, even one cancelled or refunded
           -- later), and one a bulk upload made in the last 24 hours.
           (had_order or (import_id is not null and created_at > now() - interval '24 hours')) as protected
    from live
  ), ranked as (
    select m.*,
           row_number() over w as n,
           first_value(m.import_id) over w as kept_import
    from marked m
    window w as (partition by m.seller_id, m.book_id, m.condition, m.ex_library, m.price_minor,
                              m.charity_id, m.notes
                 order by m.had_order desc, m.created_at, m.id)
  ), taken as (
    select r.id, 'duplicate'::text as rule
    from ranked r
    where r.n > 1 and not r.protected and r.book_id is not null
      and not (r.import_id is not null and r.import_id = r.kept_import)
    union all
    select r.id, 'no_image'
    from ranked r
    where not r.protected
      and jsonb_array_length(r.photos) = 0
      and r.cover_url is null
      and not (r.n > 1 and r.book_id is not null
               and not (r.import_id is not null and r.import_id = r.kept_import))
  )
  select coalesce(array_agg(t.id order by t.id), '{}'), coalesce(array_agg(t.rule order by t.id), '{}')
  into chosen_ids, chosen_rules
  from taken t;

  select md5(coalesce(string_agg(c.id::text || ':' || c.rule, ',' order by c.id), ''))
  into set_digest
  from unnest(chosen_ids, chosen_rules) as c (id, rule);

  if not p_dry_run and p_expected is not null and p_expected <> set_digest then
    raise exception 'The listings to clean up have changed since the preview. Look at the preview again before running it.'
      using errcode = 'RSCHG';
  end if;

  -- Up to p_sample of each rule, newest first: what the confirmation dialog shows.
  select coalesce(jsonb_agg(s.item order by s.rule, s.created_at desc, s.id), '[]'::jsonb)
  into sample
  from (
    select c.rule, l.created_at, l.id,
           jsonb_build_object(
             'listing_id', l.id,
             'slug', l.slug,
             'title', coalesce(b.title, 'Untitled'),
             'authors', coalesce(array_to_string(b.authors, ', '), ''),
             'seller_name', coalesce(p.display_name, 'A seller'),
             'rule', c.rule,
             'price_minor', l.price_minor) as item,
           row_number() over (partition by c.rule order by l.created_at desc, l.id) as k
    from unnest(chosen_ids, chosen_rules) as c (id, rule)
    join public.listings l on l.id = c.id
    left join public.books b on b.id = l.book_id
    left join public.profiles p on p.id = l.seller_id
  ) s
  where s.k <= greatest(p_sample, 0);

  if p_dry_run then
    duplicates_removed := coalesce(cardinality(array_positions(chosen_rules, 'duplicate')), 0);
    no_image_removed := coalesce(cardinality(array_positions(chosen_rules, 'no_image')), 0);
    total_deleted := duplicates_removed + no_image_removed;
    digest := set_digest;
    listing_ids := '{}';
    run_id := null;
    return next;
    return;
  end if;

  run := gen_random_uuid();
  select u.email into actor_email from auth.users u where u.id = p_actor;

  -- Withdraw (status re-checked: a buyer may have reserved one meanwhile), and record each
  -- withdrawal as staff's own removals are recorded, so /admin/listings restores it.
  with withdrawn as (
    update public.listings l
    set status = 'removed',
        removed_reason = case c.rule when 'duplicate' then duplicate_reason else no_image_reason end,
        updated_at = now()
    from unnest(chosen_ids, chosen_rules) as c (id, rule)
    where l.id = c.id and l.status = 'active'
    returning l.id, c.rule, l.removed_reason
  ), recorded as (
    insert into public.audit_log (actor_id, actor_email, action, target_type, target_id, details)
    select p_actor, actor_email, 'listing.remove', 'listing', w.id::text,
           jsonb_build_object('from', 'active', 'to', 'removed', 'reason', w.removed_reason,
                              'cleanup', w.rule, 'cleanup_run', run)
    from withdrawn w
  )
  select coalesce(array_agg(w.id order by w.id), '{}'),
         count(*) filter (where w.rule = 'duplicate'),
         count(*) filter (where w.rule = 'no_image')
  into listing_ids, duplicates_removed, no_image_removed
  from withdrawn w;

  total_deleted := duplicates_removed + no_image_removed;
  digest := set_digest;
  run_id := run;
  return next;
end;
$$;

-- 6. The column goes.
drop index public.orders_one_live_per_listing;
alter table public.orders drop column listing_id;
