-- A charity's page (/charity/{slug}: the description and logo its team wrote) is reportable too,
-- like a member's profile (20261217100000_reports_by_harm_and_appeals.sql, decision 0077): a report
-- names the charity, and a removal by our team records what it took down, for the charity's owner
-- to read and appeal, and to put back if the appeal is upheld.

alter table public.reports add column charity_id uuid references public.charities (id) on delete cascade;
alter table public.reports drop constraint reports_target_kind_check;
alter table public.reports add constraint reports_target_kind_check
  check (target_kind in ('listing', 'offer_message', 'message', 'review', 'profile', 'charity'));
alter table public.reports drop constraint reports_one_target_check;
alter table public.reports add constraint reports_one_target_check check (
  num_nonnulls(listing_id, offer_id, message_id, review_id, profile_id, charity_id) = 1
  and (
    (target_kind = 'listing' and listing_id is not null)
    or (target_kind = 'offer_message' and offer_id is not null)
    or (target_kind = 'message' and message_id is not null)
    or (target_kind = 'review' and review_id is not null)
    or (target_kind = 'profile' and profile_id is not null)
    or (target_kind = 'charity' and charity_id is not null)
  )
);
create unique index reports_one_open_per_charity on public.reports (reporter_id, charity_id)
  where status = 'open' and charity_id is not null;
create index reports_charity_idx on public.reports (charity_id) where charity_id is not null;

alter table public.moderation_removals add column charity_id uuid
  references public.charities (id) on delete cascade;
alter table public.moderation_removals drop constraint moderation_removals_target_kind_check;
alter table public.moderation_removals add constraint moderation_removals_target_kind_check
  check (target_kind in ('listing', 'offer_message', 'message', 'review', 'profile', 'charity'));
-- The one-target check was unnamed in 20261217100000 (so Postgres called it moderation_removals_check).
alter table public.moderation_removals drop constraint moderation_removals_check;
alter table public.moderation_removals add constraint moderation_removals_one_target_check
  check (num_nonnulls(listing_id, offer_id, message_id, review_id, profile_id, charity_id) = 1);
create index moderation_removals_charity_idx on public.moderation_removals (charity_id)
  where charity_id is not null;
