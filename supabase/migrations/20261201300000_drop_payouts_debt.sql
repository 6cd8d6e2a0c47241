-- Issue 24, decision 0046: what a seller owes after a refund taken back once their money had gone
-- to their bank is their negative balance at the payment provider (the ledger's transfers less
-- reversals and payouts), netted from their next payout. `payouts.debt_minor` was meant to hold
-- the same money a second time; nothing ever wrote or read it, so it goes.
alter table public.payouts drop column debt_minor;
