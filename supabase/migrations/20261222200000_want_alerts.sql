-- Wants' alerts (issue 38, wants38, decision 0088): a copy that meets a member's want is told in
-- the app with its own notification kind (`want_match`, contracts' NOTIFICATION_KINDS), and by
-- email on the list `wants` (contracts' OPTIONAL_EMAIL_LISTS), which every such email's
-- one-click unsubscribe leaves.
alter table public.notifications drop constraint notifications_kind_check;
alter table public.notifications add constraint notifications_kind_check check (kind in (
  'offer_received', 'offer_countered', 'offer_accepted', 'offer_declined', 'offer_expired',
  'offer_cancelled', 'order_sold', 'order_paid', 'order_dispatched', 'order_delivered',
  'order_completed', 'order_cancelled', 'parcel_problem', 'dispute_opened', 'dispute_resolved', 'refund',
  'payout_released', 'message_received', 'wishlist_price_drop', 'wishlist_sold',
  'charity_application_decided', 'team_invitation', 'saved_search_match', 'payout_waiting',
  'payout_paid', 'payout_failed', 'payout_account', 'payout_details_needed', 'review_requested',
  'review_published', 'review_removed', 'return_update', 'report_decided', 'content_removed',
  'appeal_decided', 'reporting_copy', 'want_match'
));

alter table public.email_suppressions drop constraint email_suppressions_list_check;
alter table public.email_suppressions add constraint email_suppressions_list_check
  check (list in ('all', 'newsletter', 'recommendations', 'wishlist_alerts', 'messages', 'saved_searches', 'wants'));
alter table public.email_outbox drop constraint email_outbox_list_check;
alter table public.email_outbox add constraint email_outbox_list_check
  check (list in ('newsletter', 'recommendations', 'wishlist_alerts', 'messages', 'saved_searches', 'wants'));
