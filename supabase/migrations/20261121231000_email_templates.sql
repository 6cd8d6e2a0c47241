-- Admin operations (issue 9), part 2: email templates staff can edit (decision 0016). The
-- code holds each template's default (api/src/features/mail/registry.ts); a row here is the
-- staff's version, used instead while it exists. Subject and body are plain text with
-- {{variables}}; the BFF checks the variables against the template's list before saving.
-- draft_* hold a version written in /global-admin/email-templates that is not yet published.

create table public.email_templates (
  key text primary key check (key ~ '^[a-z0-9]+([.-][a-z0-9_]+)*$' and char_length(key) <= 80),
  subject text check (char_length(btrim(subject)) between 1 and 200),
  body text check (char_length(btrim(body)) between 1 and 10000),
  updated_by uuid references auth.users (id) on delete set null,
  updated_at timestamptz,
  draft_subject text check (char_length(btrim(draft_subject)) between 1 and 200),
  draft_body text check (char_length(btrim(draft_body)) between 1 and 10000),
  draft_updated_by uuid references auth.users (id) on delete set null,
  draft_updated_at timestamptz,
  -- A published version has both parts; a draft has both parts.
  check ((subject is null) = (body is null)),
  check ((draft_subject is null) = (draft_body is null)),
  check (subject is not null or draft_subject is not null)
);

-- Written and read by the BFF only: no policy for anon or authenticated.
alter table public.email_templates enable row level security;
