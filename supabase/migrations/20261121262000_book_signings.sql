-- Admin operations (issue 9): book-signing events staff plan at /admin/book-signings: title,
-- author, venue, date and time, description; a draft until published. Only the BFF reads it.

create table public.book_signings (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  author text not null check (char_length(btrim(author)) between 1 and 120),
  venue text not null check (char_length(btrim(venue)) between 1 and 200),
  starts_at timestamptz not null,
  description text check (char_length(description) <= 2000),
  published_at timestamptz,
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index book_signings_starts_idx on public.book_signings (starts_at);
create trigger book_signings_touch before update on public.book_signings
  for each row execute function public.touch_updated_at();

-- Staff only, through the BFF (which connects as the owner): no policies for anon or users.
alter table public.book_signings enable row level security;
