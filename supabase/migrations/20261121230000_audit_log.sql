-- Admin operations (issue 9), part 1: the audit log. Every staff action is recorded here,
-- inside the action's own transaction, with who did it, what and when. Append-only: rows are
-- never changed or removed (a trigger refuses UPDATE, DELETE and TRUNCATE), so the actor is
-- kept as an id and a copy of their email, without a foreign key that could rewrite the row
-- when an account is deleted.

create table public.audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid,
  actor_email text check (char_length(actor_email) <= 320),
  action text not null check (action ~ '^[a-z][a-z0-9_]*(\.[a-z][a-zA-Z0-9_]*)+$' and char_length(action) <= 80),
  target_type text check (char_length(target_type) <= 40),
  target_id text check (char_length(target_id) <= 200),
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  request_id text check (char_length(request_id) <= 100),
  created_at timestamptz not null default now()
);
create index audit_log_created_idx on public.audit_log (created_at desc, id desc);
create index audit_log_actor_idx on public.audit_log (actor_id, created_at desc);
create index audit_log_action_idx on public.audit_log (action, created_at desc);
create index audit_log_target_idx on public.audit_log (target_type, target_id);

create or replace function public.audit_log_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'audit_log is append-only: % is not allowed', tg_op
    using errcode = 'insufficient_privilege';
end;
$$;

create trigger audit_log_no_update before update or delete on public.audit_log
  for each row execute function public.audit_log_append_only();
create trigger audit_log_no_truncate before truncate on public.audit_log
  for each statement execute function public.audit_log_append_only();

-- Written and read by the BFF only: no policy for anon or authenticated.
alter table public.audit_log enable row level security;
