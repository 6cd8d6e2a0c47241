-- Book details a seller typed are not the catalogue's word (issue 33, decision 0056). A book is
-- verified by the catalogue itself (seeded or imported), by a lookup (Open Library), or by staff
-- (/admin/books); until then it is unverified: another seller listing the same ISBN is not handed
-- its details as fact (their listing starts empty), and any seller whose listing uses it may
-- correct it. New rows are verified unless the code that stores typed details says otherwise.
alter table public.books
  add column verification text default 'catalogue'
    check (verification in ('catalogue', 'lookup', 'staff')),
  add column verified_at timestamptz default now(),
  add constraint books_verified_together check ((verification is null) = (verified_at is null));

-- Books a member added: staff's (book signings) are staff's word; a seller's (typed, or found by
-- a lookup for them: the two cannot be told apart now) wait for a lookup or staff to confirm them.
update public.books b
   set verification = case when exists (
         select 1 from public.user_roles r where r.user_id = b.created_by and r.role in ('admin', 'moderator')
       ) then 'staff' end,
       verified_at = case when exists (
         select 1 from public.user_roles r where r.user_id = b.created_by and r.role in ('admin', 'moderator')
       ) then b.created_at end
 where b.created_by is not null;
update public.books set verified_at = created_at where verification = 'catalogue';

create index books_unverified_idx on public.books (created_at desc) where verification is null;
