-- Admin operations (issue 9): the launch plan at /admin/launch-plan, a checklist staff add
-- to, tick off (who and when is kept) and put in order. Only the BFF reads it, for staff.

create table public.launch_plan_items (
  id uuid primary key default gen_random_uuid(),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  owner text check (char_length(btrim(owner)) between 1 and 80),
  position integer not null default 0,
  done_at timestamptz,
  done_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  created_by uuid references auth.users (id) on delete set null
);
create index launch_plan_items_position_idx on public.launch_plan_items (position, created_at);

-- Staff only, through the BFF (which connects as the owner): no policies for anon or users.
alter table public.launch_plan_items enable row level security;
