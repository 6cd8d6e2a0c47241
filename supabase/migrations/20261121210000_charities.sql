-- Charities (issue 10): sign-up details and staff review, members and invitations, the
-- approval gate on charity listings, donor references for Retail Gift Aid, bulk-listing
-- imports processed in batches, and 14-day return requests on charity orders.
-- Decision 0012 explains the choices.

-- Sign-up details and review -----------------------------------------------------------------
-- England and Wales numbers have 6 to 8 digits (the first migration allowed 7 at most).
alter table public.charities drop constraint charities_registered_number_check;
alter table public.charities
  add constraint charities_registered_number_check
    check (registered_number ~ '^([0-9]{6,8}|SC[0-9]{6}|NIC[0-9]{6})$'),
  add column contact_name text check (char_length(btrim(contact_name)) between 1 and 100),
  add column contact_email text check (char_length(contact_email) <= 254 and contact_email ~ '^[^@\s]+@[^@\s]+$'),
  add column contact_phone text check (char_length(contact_phone) <= 30),
  add column address_line1 text check (char_length(btrim(address_line1)) between 1 and 100),
  add column address_line2 text check (char_length(address_line2) <= 100),
  add column postcode text check (postcode ~ '^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$'),
  add column reviewed_by uuid references auth.users (id) on delete set null,
  add column reviewed_at timestamptz,
  add column rejection_reason text check (char_length(btrim(rejection_reason)) between 1 and 1000);
create index charities_pending_idx on public.charities (created_at) where status = 'pending';

-- Every approval and rejection, with who decided and why (the audit trail for charities).
create table public.charity_reviews (
  id bigserial primary key,
  charity_id uuid not null references public.charities (id) on delete cascade,
  decision text not null check (decision in ('approved', 'rejected')),
  reason text check (char_length(reason) <= 1000),
  actor_id uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  check (decision = 'approved' or char_length(btrim(reason)) > 0)
);
create index charity_reviews_charity_idx on public.charity_reviews (charity_id, id);

-- Members: the owner and the staff the owner invited. A person acts for one charity.
create table public.charity_members (
  charity_id uuid not null references public.charities (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('owner', 'staff')),
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (charity_id, user_id)
);
create unique index charity_members_one_charity on public.charity_members (user_id);

-- The owner is always a member (whoever creates the charity: sign-up, seeds, tests).
create function public.charities_owner_member() returns trigger
language plpgsql as $$
begin
  if new.owner_id is not null then
    insert into public.charity_members (charity_id, user_id, role)
    values (new.id, new.owner_id, 'owner')
    on conflict (charity_id, user_id) do update set role = 'owner';
  end if;
  return new;
end $$;
create trigger charities_owner_member after insert or update of owner_id on public.charities
  for each row execute function public.charities_owner_member();
insert into public.charity_members (charity_id, user_id, role)
select id, owner_id, 'owner' from public.charities where owner_id is not null
on conflict do nothing;

-- Invitations by email: the invited person accepts once signed in with that address.
create table public.charity_invitations (
  id uuid primary key default gen_random_uuid(),
  charity_id uuid not null references public.charities (id) on delete cascade,
  email text not null check (email = lower(email) and char_length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+$'),
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz
);
create unique index charity_invitations_open on public.charity_invitations (charity_id, email)
  where accepted_at is null and revoked_at is null;
create index charity_invitations_email_idx on public.charity_invitations (email)
  where accepted_at is null and revoked_at is null;

-- Charity listings: the approval gate and Gift Aid ---------------------------------------------
alter table public.listings
  add column donor_reference text check (donor_reference ~ '^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,39}$');
create index listings_charity_donor_idx on public.listings (charity_id, donor_reference)
  where donor_reference is not null;
create index listings_charity_status_idx on public.listings (charity_id, status) where charity_id is not null;

-- Only an approved charity's members put books on sale for it: checked whenever a listing
-- goes on sale for a charity or changes charity, whoever writes it.
create function public.listings_charity_gate() returns trigger
language plpgsql as $$
begin
  if new.charity_id is not null and new.status = 'active'
     and (tg_op = 'INSERT' or old.status is distinct from 'active'
          or old.charity_id is distinct from new.charity_id) then
    if not exists (select 1 from public.charities c where c.id = new.charity_id and c.status = 'approved') then
      raise exception 'Charity % is not approved', new.charity_id
        using errcode = '23514', constraint = 'listings_charity_approved';
    end if;
    if not exists (select 1 from public.charity_members m
                   where m.charity_id = new.charity_id and m.user_id = new.seller_id) then
      raise exception 'Seller % is not a member of charity %', new.seller_id, new.charity_id
        using errcode = '23514', constraint = 'listings_charity_member';
    end if;
  end if;
  return new;
end $$;
create trigger listings_charity_gate before insert or update of status, charity_id, seller_id
  on public.listings for each row execute function public.listings_charity_gate();

-- Bulk listing ---------------------------------------------------------------------------------
-- One upload is one import: its rows are validated at once and stored, then listed in batches
-- by whichever instance holds the lease. The same file uploaded again (a retry) is the same
-- import, and a row is listed at most once (listing_id is set in the listing's transaction).
create table public.charity_imports (
  id uuid primary key default gen_random_uuid(),
  charity_id uuid not null references public.charities (id) on delete cascade,
  created_by uuid references auth.users (id) on delete set null,
  file_name text not null check (char_length(file_name) between 1 and 255),
  file_sha256 text not null check (file_sha256 ~ '^[0-9a-f]{64}$'),
  status text not null default 'processing' check (status in ('processing', 'done')),
  total_rows integer not null check (total_rows >= 0),
  invalid_rows integer not null check (invalid_rows >= 0),
  processed_rows integer not null default 0 check (processed_rows >= 0),
  listed_rows integer not null default 0 check (listed_rows >= 0),
  draft_rows integer not null default 0 check (draft_rows >= 0),
  failed_rows integer not null default 0 check (failed_rows >= 0),
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  unique (charity_id, file_sha256)
);
create index charity_imports_charity_idx on public.charity_imports (charity_id, created_at desc);
create index charity_imports_unfinished_idx on public.charity_imports (lease_until) where status = 'processing';

create table public.charity_import_rows (
  import_id uuid not null references public.charity_imports (id) on delete cascade,
  row_number integer not null check (row_number >= 2),
  cells jsonb not null check (jsonb_typeof(cells) = 'object'),
  item jsonb check (jsonb_typeof(item) = 'object'),
  errors jsonb not null default '[]' check (jsonb_typeof(errors) = 'array'),
  status text not null check (status in ('pending', 'invalid', 'listed', 'draft', 'failed')),
  listing_id uuid references public.listings (id) on delete set null,
  primary key (import_id, row_number),
  check (status <> 'pending' or item is not null)
);
create index charity_import_rows_pending_idx on public.charity_import_rows (import_id, row_number)
  where status = 'pending';

-- Returns on charity orders (14 days from delivery) -----------------------------------------
create table public.return_requests (
  id uuid primary key default gen_random_uuid(),
  order_id uuid not null unique references public.orders (id) on delete cascade,
  charity_id uuid not null references public.charities (id) on delete restrict,
  buyer_id uuid not null references auth.users (id) on delete restrict,
  status text not null default 'requested'
    check (status in ('requested', 'accepted', 'declined', 'refunded')),
  reason text not null check (char_length(btrim(reason)) between 5 and 1000),
  decline_reason text check (char_length(btrim(decline_reason)) between 5 and 1000),
  responded_by uuid references auth.users (id) on delete set null,
  responded_at timestamptz,
  refund_id uuid references public.refunds (id) on delete restrict,
  refund_minor integer check (refund_minor > 0),
  refunded_by uuid references auth.users (id) on delete set null,
  refunded_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (status <> 'declined' or decline_reason is not null),
  check (status <> 'refunded' or (refund_id is not null and refunded_at is not null))
);
create index return_requests_charity_idx on public.return_requests (charity_id, created_at desc);
create trigger return_requests_touch before update on public.return_requests
  for each row execute function public.touch_updated_at();

-- Row-level security -----------------------------------------------------------------------------
alter table public.charity_reviews enable row level security;
alter table public.charity_members enable row level security;
alter table public.charity_invitations enable row level security;
alter table public.charity_imports enable row level security;
alter table public.charity_import_rows enable row level security;
alter table public.return_requests enable row level security;

create policy charity_members_read_own on public.charity_members for select to authenticated
  using (user_id = auth.uid());
create policy charity_imports_members on public.charity_imports for select to authenticated
  using (exists (select 1 from public.charity_members m
                 where m.charity_id = charity_imports.charity_id and m.user_id = auth.uid()));
create policy charity_import_rows_members on public.charity_import_rows for select to authenticated
  using (exists (select 1 from public.charity_imports i
                 join public.charity_members m on m.charity_id = i.charity_id
                 where i.id = charity_import_rows.import_id and m.user_id = auth.uid()));
create policy return_requests_parties on public.return_requests for select to authenticated
  using (buyer_id = auth.uid()
         or exists (select 1 from public.charity_members m
                    where m.charity_id = return_requests.charity_id and m.user_id = auth.uid()));
-- Reviews and invitations are read and written by the BFF only.
