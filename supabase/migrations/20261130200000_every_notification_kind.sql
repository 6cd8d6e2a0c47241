-- Issues 24, 25 and 26 were built side by side, and three of their migrations each rewrote
-- notifications_kind_check with the kinds they knew of: the last to run (reviews) would have
-- dropped 'saved_search_match' and the payout kinds. This restores the whole list, which is
-- packages/contracts' NOTIFICATION_KINDS (api/src/db/schema.int.test.ts checks the two agree).
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match', 'payout_waiting',
  'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed', 'review_requested',
  'review_published', 'review_removed'
));
