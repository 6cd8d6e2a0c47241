-- Issue 26 (reader's side): who viewed, what members told onboarding, and recommendations
-- computed by the job runner into a table per member (decision 0045).

-- A view made by a signed-in member names them, so their recommendations can follow what they
-- looked at; a visitor's view is still only the salted hash. One view per member (or visitor)
-- per listing per day is the primary key as before: a member's viewer_key is a hash of their id.
alter table public.listing_views
  add column viewer_id uuid references auth.users (id) on delete set null;
create index listing_views_viewer_idx on public.listing_views (viewer_id, viewed_at desc)
  where viewer_id is not null;

-- Favourite authors from onboarding (beside profile_genres), spelt as the catalogue spells them
-- when a book has them.
create table public.profile_authors (
  user_id uuid not null references public.profiles (id) on delete cascade,
  author text not null check (char_length(btrim(author)) between 1 and 200),
  created_at timestamptz not null default now(),
  primary key (user_id, author)
);

-- Books by an author: onboarding's authors and "more by the author of a book you saved".
create index books_authors_idx on public.books using gin (authors);

-- The recommendations of one member, best first, each with why. Read with the listing, which
-- must still be on sale; written whole per member by the recommendations job.
create table public.member_recommendations (
  user_id uuid not null references auth.users (id) on delete cascade,
  listing_id uuid not null references public.listings (id) on delete cascade,
  rank integer not null check (rank >= 1),
  score real not null,
  reason text not null check (reason in ('co_purchase', 'wishlist', 'purchase', 'view', 'author',
                                         'genre', 'staff_pick', 'trending')),
  because text check (char_length(because) <= 300),
  primary key (user_id, listing_id)
);
create index member_recommendations_rank_idx on public.member_recommendations (user_id, rank);

-- When each member's recommendations were last computed: the job refreshes those whose
-- signals changed since, or that are older than its refresh age.
create table public.member_recommendation_runs (
  user_id uuid primary key references auth.users (id) on delete cascade,
  computed_at timestamptz not null default now(),
  candidates integer not null default 0
);
create index member_recommendation_runs_computed_idx on public.member_recommendation_runs (computed_at);

alter table public.profile_authors enable row level security;
alter table public.member_recommendations enable row level security;
alter table public.member_recommendation_runs enable row level security;
