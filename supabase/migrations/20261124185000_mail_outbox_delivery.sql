-- Issue 18, "Email leaves the building" (decision 0028): email_outbox becomes a durable
-- outbox. Feature code inserts a row ('queued') in the same transaction as the change that
-- causes it; a sender in the BFF claims due rows (FOR UPDATE SKIP LOCKED, with a lease),
-- hands them to the configured transport (dev mailbox, SMTP or Resend), and records the
-- outcome: 'sent' with the provider's id, or another attempt later with exponential backoff,
-- or 'failed' after the last attempt. A non-essential message (it names the list it belongs
-- to) to someone who unsubscribed from that list is 'suppressed', never sent.

alter table public.email_outbox drop constraint if exists email_outbox_status_check;
alter table public.email_outbox
  add constraint email_outbox_status_check
  check (status in ('queued', 'sending', 'sent', 'failed', 'suppressed'));

alter table public.email_outbox rename column error to last_error;

alter table public.email_outbox
  -- The Message-ID header, fixed when the row is written: every attempt of one row sends the
  -- same one, so a receiver that got an attempt whose answer we never saw can drop the copy.
  add column message_id text,
  add column attempts integer not null default 0 check (attempts >= 0),
  add column next_attempt_at timestamptz not null default now(),
  add column last_attempt_at timestamptz,
  -- A claimed row belongs to one sender until lease_until; lease_token says which claim.
  add column lease_until timestamptz,
  add column lease_token uuid,
  add column provider_message_id text,
  add column failed_at timestamptz,
  -- Non-essential messages only: the list a person may leave, and its one-click address
  -- (List-Unsubscribe, RFC 8058). Essential ones (account, security, orders, payments,
  -- what staff must tell someone) have neither.
  add column list text check (list in ('newsletter', 'recommendations', 'wishlist_alerts')),
  add column unsubscribe_url text,
  add constraint email_outbox_list_has_unsubscribe check ((list is null) = (unsubscribe_url is null)),
  add constraint email_outbox_sending_has_lease
    check (status <> 'sending' or (lease_until is not null and lease_token is not null));

-- Rows written before this migration were "sent" to the dev mailbox at once.
update public.email_outbox
set message_id = '<' || id::text || '@reshelf.invalid>',
    html_body = coalesce(html_body, ''),
    attempts = case when status = 'sent' then 1 else attempts end,
    last_attempt_at = case when status = 'sent' then sent_at else last_attempt_at end,
    failed_at = case when status = 'failed' then created_at else failed_at end
where message_id is null;

-- Every email has an HTML part as well as its text. Several messages queued in one
-- transaction keep the order they were written in (now() is the transaction's start).
alter table public.email_outbox
  alter column message_id set not null,
  alter column html_body set not null,
  alter column created_at set default clock_timestamp();
create unique index email_outbox_message_id_key on public.email_outbox (message_id);

-- What the sender looks for: due queued rows, and claims whose lease ran out.
create index email_outbox_due_idx on public.email_outbox (next_attempt_at) where status = 'queued';
create index email_outbox_lease_idx on public.email_outbox (lease_until) where status = 'sending';
-- The health panel: failures of the last day.
create index email_outbox_failed_idx on public.email_outbox (failed_at desc) where status = 'failed';

-- Wake every BFF instance's sender when a message is queued: the notification is delivered
-- when the inserting transaction commits (never for one that rolls back), once per statement.
create or replace function public.notify_mail_queued() returns trigger
language plpgsql as $$
begin
  perform pg_notify('reshelf_mail', '');
  return null;
end;
$$;

create trigger email_outbox_notify_queued after insert on public.email_outbox
  for each statement execute function public.notify_mail_queued();
