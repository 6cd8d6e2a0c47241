-- Charity sales are returnable for 14 days after delivery (decision 0012), longer than the
-- 2 days after which an order completes. A charity's payout therefore stays held until the
-- return window has closed: release_after is set when such an order completes, and the
-- payouts.release_held job releases it then, unless a return is still open (a refunded return
-- cancels it instead). Other sellers' payouts are released on completion, as before.
alter table public.payouts add column release_after timestamptz;

create index payouts_release_after_idx on public.payouts (release_after) where status = 'held' and release_after is not null;
