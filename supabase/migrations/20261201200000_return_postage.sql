-- Return postage the seller pays (issue 25, decision 0049): when a return is the seller's fault
-- (not as described, damaged, wrong book, missing pages), the buyer enters what they paid to post
-- the book back with the tracking; the refund the seller's confirmation sends includes it, up to
-- PROTECTION_RULES.returnPostageCapMinor (packages/contracts) and what is left of the payment.
-- `return_postage_refunded_minor` is what of it went back (a refund row of its own, through the
-- refund command, taken from the seller's payout).
alter table public.disputes
  add column return_postage_minor integer
    check (return_postage_minor >= 0 and return_postage_minor <= 10000),
  add column return_postage_refunded_minor integer not null default 0
    check (return_postage_refunded_minor >= 0);
