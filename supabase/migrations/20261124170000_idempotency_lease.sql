-- Idempotency keys with a lease (decision 0024). The request holding a key renews
-- `locked_until` while it works (a heartbeat); a key with no answer whose lease has run out
-- belongs to a request that is no longer running (its process died) and is taken over by the
-- next retry with one conditional update. `holder` says which request holds it, so that a
-- request that lost its lease cannot overwrite the one that took over. `progress` is what the
-- work recorded in its own transaction (checkout: the order it created), so that the retry
-- carries on from there instead of starting again. A key from before this change has no lease:
-- it counts as held until `created_at` plus one lease.
alter table public.idempotency_keys
  add column locked_until timestamptz,
  add column holder uuid,
  add column progress jsonb;

comment on column public.idempotency_keys.locked_until is
  'While the request is working: renewed by its heartbeat. Null once answered.';
comment on column public.idempotency_keys.holder is 'The request holding the key (random per attempt).';
comment on column public.idempotency_keys.progress is
  'What the work recorded so far, in its own transaction; a retry that takes the key over carries on from it.';
