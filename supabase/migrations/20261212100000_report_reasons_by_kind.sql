-- Reports give reasons that fit what they report (issue 33): a message is reported for
-- harassment, spam, a scam or fraud, or asking to pay outside Reshelf, not as a "prohibited item"
-- or a "wrong price". Which reasons each kind may give is REPORT_REASONS_FOR in
-- packages/contracts/src/reports.ts, checked by the API; here, every reason any kind may give.
-- Reports made before keep the reason they were given.
alter table public.reports drop constraint reports_reason_check;
alter table public.reports add constraint reports_reason_check check (
  reason in (
    'not_as_described', 'prohibited', 'offensive', 'spam_or_scam', 'wrong_details',
    'harassment', 'spam', 'scam_or_fraud', 'off_platform_payment', 'other'
  )
);
