-- "Cleanup duplicates", made safe (issue 16, decision 0023).
--
-- The old admin_cleanup_listings() deleted every live listing with neither a photo nor a
-- cover: offline the whole demo catalogue, and a charity's bulk upload of minutes before.
-- This version
--   * previews: p_dry_run answers what would go (counts, a sample of titles and a digest of
--     the exact set) and changes nothing; the run is the same function with p_dry_run false,
--     so the preview and the run can never apply different rules;
--   * withdraws, never deletes: each listing taken becomes status 'removed' with the reason
--     its seller is told, and gets the same `listing.remove` audit entry as a removal on
--     /admin/listings (from: 'active'), so staff restore it there (for 30 days, see the
--     staff-listings service);
--   * refuses a stale confirmation: p_expected (the preview's digest) must still describe
--     the set, or nothing happens (SQLSTATE RSCHG);
--   * never takes a listing that has had an order, nor one a bulk upload made in the last
--     24 hours.
--
-- Duplicates: live listings of one seller of the same book, in the same condition and
-- ex-library state, at the same price, for the same charity (or none), with the same
-- condition notes. The kept copy is the one with an order if any, else the oldest; copies
-- made by the same bulk upload as the kept copy are kept too (an upload has one row per
-- copy the charity holds). Two sellers' copies are never duplicates.

drop function if exists public.admin_cleanup_listings();

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
           exists (select 1 from public.orders o where o.listing_id = l.id) as had_order
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

revoke all on function public.admin_cleanup_listings(boolean, uuid, text, integer) from public, anon, authenticated;
grant execute on function public.admin_cleanup_listings(boolean, uuid, text, integer) to service_role;

-- Finding a listing's bulk-upload row is by listing (the clean-up asks it of every live one).
create index if not exists charity_import_rows_listing_idx on public.charity_import_rows (listing_id)
  where listing_id is not null;
