-- Issue 20: realtime, fed by PostgreSQL (decision 0034, docs/realtime.md).
--
-- A feature that wants a member to hear about a change at once inserts a row here IN THE SAME
-- TRANSACTION as the change (features/realtime `publish(trx, …)`). The row is the durable
-- record a reconnecting client resumes from; the statement-level trigger below NOTIFYs every
-- BFF instance when the transaction commits (never for one that rolls back), with ids only:
-- `{"topic":"user:<uuid>","id":<largest new id>}`. A subscriber then reads what is new for its
-- topic with its own query, and the procedure reads the thing itself with the member's access.
--
-- Ids are not a safe resume cursor on their own: two transactions take ids 10 and 11 and may
-- commit 11 first, so "everything after 11" would skip 10. Each row therefore records the
-- top-level transaction that wrote it (`txid`, xid8); a cursor says "every event of a
-- transaction older than the snapshot's xmin has been seen, plus these few ids" (hub.ts).

create table public.realtime_events (
  id bigint generated always as identity primary key,
  topic text not null
    check (topic ~ '^[a-z][a-z_]{0,30}:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  kind text not null check (char_length(kind) <= 64 and kind ~ '^[a-z][a-z_]*(\.[a-z][a-z_]*)*$'),
  entity_id uuid,
  -- Never set by hand: the writing transaction's id decides when a cursor may pass the row.
  txid xid8 not null default pg_current_xact_id(),
  created_at timestamptz not null default now()
);

-- A topic's events in cursor order; and the prune job's scan.
create index realtime_events_topic_idx on public.realtime_events (topic, txid, id);
create index realtime_events_created_idx on public.realtime_events (created_at);

create or replace function public.notify_realtime_events() returns trigger
language plpgsql
set search_path = public, pg_catalog
as $$
begin
  perform pg_notify('reshelf_realtime', json_build_object('topic', t.topic, 'id', t.id)::text)
  from (select topic, max(id) as id from inserted group by topic) t;
  return null;
end;
$$;

create trigger realtime_events_notify after insert on public.realtime_events
  referencing new table as inserted
  for each statement execute function public.notify_realtime_events();

-- Only the BFF reads and writes events (its runtime role has DML by default privileges).
alter table public.realtime_events enable row level security;
