-- Photos uploaded to a conversation but never sent (decision 0035, "Unsent photos").
--
-- A member's photo for a message, or for a report's or a contest's evidence, is stored as soon
-- as it is chosen (POST /api/uploads/message-photo: two WebP sizes under
-- messages/<thread>/<random>/), and only later sent. Each upload is recorded here before its
-- files are written, and the record goes in the transaction that writes the message, report or
-- contest using it. A record left UNSENT_PHOTO_HOURS (24) after its upload is a photo removed
-- before sending or a page closed: the job message_photos.sweep deletes its files, then the
-- record (a record whose files fail to delete stays, and is retried on the next run).
--
-- thread_id has no foreign key on purpose: a conversation deleted with an account must not take
-- the records of its unsent photos with it, or their files would never be deleted.
create table public.message_photo_uploads (
  large_key text primary key check (char_length(large_key) <= 512),
  thumb_key text not null check (char_length(thumb_key) <= 512),
  -- The URL handed to the uploader, exactly as a message or dispute stores it.
  url text not null unique check (char_length(url) <= 2000),
  thread_id uuid not null,
  uploaded_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now()
);
create index message_photo_uploads_created_idx on public.message_photo_uploads (created_at);
create index message_photo_uploads_thread_idx on public.message_photo_uploads (thread_id);

-- Written and read by the BFF only (its runtime role has DML on new tables by default
-- privileges, 20261124180000_database_privileges.sql); no policy, no client grant.
alter table public.message_photo_uploads enable row level security;
