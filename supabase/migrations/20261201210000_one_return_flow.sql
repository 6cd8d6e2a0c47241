-- One return flow (issue 25, decision 0049): a charity's 14-day change-of-mind return runs the
-- same steps as a dispute's return — the buyer asks, the seller accepts (the buyer is given the
-- address), the buyer enters the carrier and tracking, the seller confirms receipt, the refund
-- goes out. These are the tracking step's columns (the dispute's are on `disputes`).
alter table public.return_requests
  add column return_carrier text check (char_length(return_carrier) <= 60),
  add column return_tracking_ref text check (char_length(return_tracking_ref) <= 60),
  add column return_sent_at timestamptz,
  add constraint return_requests_tracking check ((return_sent_at is null) = (return_tracking_ref is null));

-- A return's steps are told in the app as well as by email: a kind of their own. The whole list
-- is packages/contracts' NOTIFICATION_KINDS (api/src/db/schema.int.test.ts checks they agree).
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match', 'payout_waiting',
  'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed', 'review_requested',
  'review_published', 'review_removed', 'return_update'
));
