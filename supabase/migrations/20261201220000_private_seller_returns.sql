-- Private sellers may accept returns (issue 25, decision 0049): a seller whose
-- `profiles.accepts_returns` is on takes a book back for a change of mind within
-- PROTECTION_RULES.privateReturnDays of delivery, on the same return flow as a charity's 14 days.
-- A return request is now the seller's (`seller_id`, the order's seller) and the charity's when
-- the books came from one; a private seller gives the address to post it to when accepting.
alter table public.return_requests
  add column seller_id uuid references auth.users (id) on delete restrict,
  add column return_address text check (char_length(btrim(return_address)) between 5 and 300);
update public.return_requests r set seller_id = o.seller_id from public.orders o where o.id = r.order_id;
alter table public.return_requests
  alter column seller_id set not null,
  alter column charity_id drop not null,
  -- A private seller's accepted return says where to post it (a charity's is its own address).
  add constraint return_requests_private_address
    check (charity_id is not null or status in ('requested', 'declined') or return_address is not null);
create index return_requests_seller_idx on public.return_requests (seller_id, created_at desc);

drop policy return_requests_parties on public.return_requests;
create policy return_requests_parties on public.return_requests for select to authenticated
  using (buyer_id = auth.uid() or seller_id = auth.uid()
         or exists (select 1 from public.charity_members m
                    where m.charity_id = return_requests.charity_id and m.user_id = auth.uid()));
