-- Admin operations (issue 9): staff curation of the computed trending list (/admin/trending-books).
-- A pinned listing is shown at the top of /trending and the home page's trending shelf while it
-- is on sale (pins in the order they were made); a hidden listing's book is left out of the list,
-- whichever copy would have shown it. One override a listing. A change drops the public cache
-- like any catalogue change (decision 0008).

create table public.trending_overrides (
  listing_id uuid primary key references public.listings (id) on delete cascade,
  mode text not null check (mode in ('pin', 'hide')),
  set_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index trending_overrides_mode_idx on public.trending_overrides (mode, created_at);
create trigger trending_overrides_notify_catalogue after insert or update or delete or truncate
  on public.trending_overrides for each statement execute function public.notify_catalogue_change();

-- Read through the BFF only: the public list already reflects the overrides.
alter table public.trending_overrides enable row level security;
