-- A staff refund comes out of the seller's payout (decision 0022). reversed_minor is how much of
-- the payout has been taken back: from a payout still held it is simply not paid; from one
-- already released it is a debt against the seller. What the seller is owed for the sale is
-- amount_minor - reversed_minor. A full refund of a held payout cancels it, as before.
alter table public.payouts
  add column reversed_minor integer not null default 0,
  add column reversed_at timestamptz,
  add constraint payouts_reversed_within check (reversed_minor between 0 and amount_minor);
