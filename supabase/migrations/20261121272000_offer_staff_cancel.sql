-- Admin operations (issue 9): staff cancel an open offer (/admin/offers), e.g. for abuse. A
-- cancelled round is closed like a withdrawn one (it no longer counts as open, so the buyer may
-- offer again) and keeps who cancelled it and why; the audit log has the same.

alter table public.offers drop constraint offers_status_check;
alter table public.offers
  add constraint offers_status_check check (
    status in ('pending', 'accepted', 'declined', 'countered', 'expired', 'withdrawn', 'purchased',
               'lapsed', 'cancelled')
  ),
  add column cancel_reason text check (char_length(cancel_reason) <= 500),
  add column cancelled_by uuid references auth.users (id) on delete set null,
  add constraint offers_cancel_reason check (status <> 'cancelled' or cancel_reason is not null);

-- The staff list looks threads up by their latest round and counts recent ones.
create index offers_created_idx on public.offers (created_at desc);
