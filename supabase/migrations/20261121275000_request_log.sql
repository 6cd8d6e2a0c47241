-- The structured request log staff read on /admin/logs (issue 9): one row per API request the
-- BFF answered (not static files or health checks), written in batches after the answer has
-- gone, kept 14 days (job request_log.prune). No query strings or bodies: a tRPC path names its
-- procedures and nothing else, so no searched email, token or password lands here. user_id is
-- who made the call (none when signed out); no IP address is kept.
create table public.request_log (
  id bigserial primary key,
  at timestamptz not null,
  request_id text not null check (char_length(request_id) <= 200),
  method text not null check (char_length(method) <= 10),
  path text not null check (char_length(path) <= 2000),
  status integer not null check (status between 100 and 599),
  duration_ms real not null check (duration_ms >= 0),
  user_id uuid references auth.users (id) on delete set null
);
create index request_log_at_idx on public.request_log (at);
create index request_log_status_idx on public.request_log (status, id desc);
create index request_log_request_idx on public.request_log (request_id);
create index request_log_path_idx on public.request_log (path text_pattern_ops, id desc);

-- Written and read by the BFF only.
alter table public.request_log enable row level security;
