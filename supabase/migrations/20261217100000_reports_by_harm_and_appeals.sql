-- User-to-user duties (Online Safety Act 2023, issue 35): every report records the kind of harm it
-- is about, members' profiles can be reported, the reporter is told the outcome, and a member whose
-- content our team removed is told why and may appeal, decided by someone else on the staff.
-- The kinds of harm, the reasons and which harm each reason is about are packages/contracts'
-- HARM_KINDS, REPORT_REASONS and REPORT_REASON_HARM (the API writes `harm` from the reason).

-- The new reasons (hate, terrorism, sexual content involving a child).
alter table public.reports drop constraint reports_reason_check;
alter table public.reports add constraint reports_reason_check check (
  reason in (
    'not_as_described', 'prohibited', 'offensive', 'spam_or_scam', 'wrong_details',
    'harassment', 'spam', 'scam_or_fraud', 'off_platform_payment', 'hate', 'terrorism',
    'child_abuse', 'other'
  )
);

-- The harm each report is about; reports made before get the harm their reason is about.
alter table public.reports add column harm text;
update public.reports set harm = case reason
  when 'scam_or_fraud' then 'fraud'
  when 'spam_or_scam' then 'fraud'
  when 'off_platform_payment' then 'fraud'
  when 'prohibited' then 'illegal_item'
  when 'offensive' then 'hate'
  when 'harassment' then 'harassment'
  when 'not_as_described' then 'intellectual_property'
  when 'spam' then 'spam'
  else 'other'
end;
alter table public.reports alter column harm set not null;
alter table public.reports add constraint reports_harm_check check (
  harm in ('fraud', 'csea', 'terrorism', 'illegal_item', 'hate', 'harassment',
    'intellectual_property', 'spam', 'other')
);
-- The open queue by harm, oldest first within it.
create index reports_open_by_harm_idx on public.reports (harm, created_at) where status = 'open';

-- A member's profile (name, bio, photo) is reportable too.
alter table public.reports add column profile_id uuid references public.profiles (id) on delete cascade;
alter table public.reports drop constraint reports_target_kind_check;
alter table public.reports add constraint reports_target_kind_check
  check (target_kind in ('listing', 'offer_message', 'message', 'review', 'profile'));
alter table public.reports drop constraint reports_one_target_check;
alter table public.reports add constraint reports_one_target_check check (
  num_nonnulls(listing_id, offer_id, message_id, review_id, profile_id) = 1
  and (
    (target_kind = 'listing' and listing_id is not null)
    or (target_kind = 'offer_message' and offer_id is not null)
    or (target_kind = 'message' and message_id is not null)
    or (target_kind = 'review' and review_id is not null)
    or (target_kind = 'profile' and profile_id is not null)
  )
);
create unique index reports_one_open_per_profile on public.reports (reporter_id, profile_id)
  where status = 'open' and profile_id is not null;
create index reports_profile_idx on public.reports (profile_id) where profile_id is not null;

-- Every removal of a member's content by our team: what, whose, who removed it and why, what was
-- taken down (a profile's bio and photo, to put back), and the member's appeal. The appeal is
-- decided by another member of staff than the one who removed it (the check below; the API says
-- so first, in words).
create table public.moderation_removals (
  id uuid primary key default gen_random_uuid(),
  target_kind text not null check (target_kind in ('listing', 'offer_message', 'message', 'review', 'profile')),
  listing_id uuid references public.listings (id) on delete cascade,
  offer_id uuid references public.offers (id) on delete cascade,
  message_id uuid references public.messages (id) on delete cascade,
  review_id uuid references public.reviews (id) on delete cascade,
  profile_id uuid references public.profiles (id) on delete cascade,
  owner_id uuid not null references auth.users (id) on delete cascade,
  removed_by uuid not null references auth.users (id),
  reason text not null check (length(reason) between 1 and 1000),
  -- The content in words, as its owner knows it ("your listing “Dracula”"), kept as it was.
  what text not null check (length(what) between 1 and 300),
  harm text check (harm in ('fraud', 'csea', 'terrorism', 'illegal_item', 'hate', 'harassment',
    'intellectual_property', 'spam', 'other')),
  removed_content jsonb not null default '{}',
  created_at timestamptz not null default now(),
  appeal_by timestamptz not null,
  appeal_text text check (length(appeal_text) between 1 and 2000),
  appealed_at timestamptz,
  appeal_status text check (appeal_status in ('open', 'upheld', 'rejected')),
  decided_by uuid references auth.users (id),
  decided_at timestamptz,
  decision_note text check (length(decision_note) between 1 and 1000),
  check (num_nonnulls(listing_id, offer_id, message_id, review_id, profile_id) = 1),
  -- An appeal is written in time, and has its text.
  check ((appeal_status is null) = (appealed_at is null) and (appealed_at is null) = (appeal_text is null)),
  check (appealed_at is null or appealed_at <= appeal_by),
  -- A decided appeal says who decided it, when and why; an open one does not.
  check ((appeal_status in ('upheld', 'rejected')) = (decided_by is not null)
    and (decided_by is null) = (decided_at is null) and (decided_by is null) = (decision_note is null)),
  constraint moderation_removals_appeal_decided_by_another check (decided_by <> removed_by)
);
create index moderation_removals_owner_idx on public.moderation_removals (owner_id, created_at desc);
create index moderation_removals_open_appeals_idx on public.moderation_removals (appealed_at)
  where appeal_status = 'open';

-- Staff and the owner only, through the BFF (which connects as the owner): no policies.
alter table public.moderation_removals enable row level security;

-- The notifications of reports and appeals. The whole list is packages/contracts'
-- NOTIFICATION_KINDS (api/src/db/schema.int.test.ts checks they agree).
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match', 'payout_waiting',
  'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed', 'review_requested',
  'review_published', 'review_removed', 'return_update', 'report_decided', 'content_removed',
  'appeal_decided'
));
