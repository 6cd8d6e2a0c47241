-- Closing an account (UK GDPR erasure, features/account/close-account.service.ts): the profile
-- stays (orders, payments, reviews and messages point at the person for six years), shown as
-- "Former member", and says when it was closed. The auth.users row is never deleted: its
-- address is anonymised and its password dropped by the identity port's closeUser.
alter table public.profiles
  add column closed_at timestamptz;

-- A closed profile keeps no personal details.
alter table public.profiles
  add constraint profiles_closed_is_anonymous check (
    closed_at is null or (bio is null and town is null and avatar_url is null)
  );
