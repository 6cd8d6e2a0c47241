-- Admin operations (issue 9): the covers backfill (/admin/covers-backfill). Staff look up books
-- without a cover by ISBN through the book lookup port and store the https cover found. Each
-- run is recorded with its counts and each book's outcome, for the page's report. At most one
-- run at a time: the partial unique index refuses a second running row.

create table public.cover_backfill_runs (
  id uuid primary key default gen_random_uuid(),
  started_by uuid references auth.users (id) on delete set null,
  lookup text not null check (lookup in ('offline', 'openlibrary')),
  status text not null default 'running' check (status in ('running', 'finished', 'failed')),
  selection text not null check (selection in ('all', 'chosen')),
  requested integer not null check (requested between 1 and 50),
  checked integer not null default 0 check (checked >= 0),
  found integer not null default 0 check (found >= 0),
  not_found integer not null default 0 check (not_found >= 0),
  no_isbn integer not null default 0 check (no_isbn >= 0),
  errors integer not null default 0 check (errors >= 0),
  error text check (char_length(error) <= 1000),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  check (checked = found + not_found + no_isbn + errors and checked <= requested),
  check ((status = 'running') = (finished_at is null))
);
create unique index cover_backfill_runs_one_running on public.cover_backfill_runs ((true))
  where status = 'running';
create index cover_backfill_runs_started_idx on public.cover_backfill_runs (started_at desc);

-- The books of a run, in the order they are looked up; outcome null until looked up. Title and
-- ISBN are copied so the report still reads after a book is merged away.
create table public.cover_backfill_items (
  run_id uuid not null references public.cover_backfill_runs (id) on delete cascade,
  position integer not null check (position >= 1),
  book_id uuid references public.books (id) on delete set null,
  title text not null,
  isbn13 text,
  outcome text check (outcome in ('found', 'not_found', 'no_isbn', 'error')),
  cover_url text check (char_length(cover_url) <= 2048),
  detail text check (char_length(detail) <= 500),
  checked_at timestamptz,
  primary key (run_id, position),
  check ((outcome is null) = (checked_at is null)),
  check (outcome <> 'found' or cover_url like 'https://%')
);
create index cover_backfill_items_book_idx on public.cover_backfill_items (book_id, checked_at desc);

-- Staff only, through the BFF (which connects as the owner): no policies for anon or users.
alter table public.cover_backfill_runs enable row level security;
alter table public.cover_backfill_items enable row level security;
