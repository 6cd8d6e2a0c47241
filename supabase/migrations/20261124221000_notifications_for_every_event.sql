-- Issue 20 (decision 0036): one notifications table for every event a member expects, not
-- only wishlist news. Written by `notify(trx, …)` (api/src/features/notifications) in the
-- transaction of the event, with its words, where it leads and what it is about; each one also
-- publishes a realtime event to the member (`user:<id>`, `notification.created`), so the bell
-- counts it at once. The wishlist trigger keeps writing its two kinds, and now publishes too.

alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation'
));

alter table public.notifications
  -- The words, written when the event happens (the wishlist kinds' are made when read).
  add column title text check (char_length(title) between 1 and 200),
  add column body text check (char_length(body) between 1 and 1000),
  -- Where it leads on the site: a path such as /account/sales/<id>.
  add column link text check (char_length(link) <= 500 and link ~ '^/[^/\\]'),
  add column order_id uuid references public.orders (id) on delete cascade,
  add column offer_id uuid references public.offers (id) on delete cascade,
  add column charity_id uuid references public.charities (id) on delete cascade,
  -- Anything else it is about (a message thread), by its kind.
  add column entity_id uuid,
  -- Kinds whose email a job sends later (wishlist price drops, the unread-message digest):
  -- when it was queued, or skipped. Null: not yet.
  add column emailed_at timestamptz,
  add constraint notifications_words check (
    kind in ('wishlist_price_drop', 'wishlist_sold') or (title is not null and body is not null)
  );

-- Notifications from before this are not emailed now.
update public.notifications set emailed_at = created_at where emailed_at is null;

-- What the email job looks for.
create index notifications_email_due_idx on public.notifications (created_at)
  where emailed_at is null and kind in ('wishlist_price_drop', 'message_received');
-- A thread's message notifications, marked read when the member reads the thread.
create index notifications_entity_idx on public.notifications (user_id, entity_id)
  where entity_id is not null and read_at is null;
create index notifications_order_idx on public.notifications (order_id) where order_id is not null;
create index notifications_offer_idx on public.notifications (offer_id) where offer_id is not null;
create index notifications_charity_idx on public.notifications (charity_id) where charity_id is not null;

-- The wishlist trigger: as before, and each notification it writes (or brings up to date) is
-- announced to its member in the same transaction; a further price drop is emailed again.
create or replace function public.notify_wishlisters() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  if new.status = 'active' and old.status = 'active' and new.price_minor < old.price_minor then
    with written as (
      insert into public.notifications (user_id, kind, listing_id, data)
      select w.user_id, 'wishlist_price_drop', new.id,
             jsonb_build_object('oldPriceMinor', old.price_minor, 'newPriceMinor', new.price_minor)
      from public.wishlist_items w
      where w.listing_id = new.id and w.user_id <> new.seller_id
      on conflict (user_id, listing_id) where kind = 'wishlist_price_drop' and read_at is null
      do update set data = jsonb_set(notifications.data, '{newPriceMinor}', excluded.data -> 'newPriceMinor'),
                    created_at = now(), emailed_at = null
      returning id, user_id
    )
    insert into public.realtime_events (topic, kind, entity_id)
    select 'user:' || user_id, 'notification.created', id from written;
  end if;
  if new.status = 'sold' and old.status is distinct from 'sold' then
    with written as (
      insert into public.notifications (user_id, kind, listing_id, data, emailed_at)
      select w.user_id, 'wishlist_sold', new.id, jsonb_build_object('priceMinor', new.price_minor), now()
      from public.wishlist_items w
      where w.listing_id = new.id and w.user_id <> new.seller_id
      returning id, user_id
    )
    insert into public.realtime_events (topic, kind, entity_id)
    select 'user:' || user_id, 'notification.created', id from written;
  end if;
  return null;
end;
$$;

-- Email lists a member may leave: unread-message emails join the wishlist alerts (and the
-- lists no email uses yet).
alter table public.email_suppressions drop constraint email_suppressions_list_check;
alter table public.email_suppressions add constraint email_suppressions_list_check
  check (list in ('all', 'newsletter', 'recommendations', 'wishlist_alerts', 'messages'));
alter table public.email_outbox drop constraint email_outbox_list_check;
alter table public.email_outbox add constraint email_outbox_list_check
  check (list in ('newsletter', 'recommendations', 'wishlist_alerts', 'messages'));
