-- Two-sided disputes and returns (issue 25, decision 0049).
--
-- A buyer's report names what went wrong (`problem`), describes it (`reason`, as before) and may
-- carry up to 6 photos from the order's conversation. The seller then has 3 working days
-- (`respond_by`) to answer: refund in full, offer a part (the buyer accepts or refuses), ask for
-- the book back, or contest with their own words and photos. `stage` says whose move it is:
--   seller  the seller has to answer by respond_by (the job sends it to staff after that)
--   buyer   the buyer is weighing the seller's partial offer
--   return  the book is going back (the buyer adds tracking, the seller confirms it came)
--   staff   our team decides (contested, refused offer, no answer in time, or a legacy report)
--   closed  settled
alter table public.disputes
  add column problem text,
  add column photos text[] not null default '{}' check (cardinality(photos) <= 6),
  add column stage text not null default 'staff'
    check (stage in ('seller', 'buyer', 'return', 'staff', 'closed')),
  add column respond_by timestamptz,
  add column seller_response text
    check (seller_response in ('accept_full', 'offer_partial', 'ask_return', 'contest')),
  add column seller_statement text check (char_length(seller_statement) <= 2000),
  add column seller_photos text[] not null default '{}' check (cardinality(seller_photos) <= 6),
  add column seller_responded_at timestamptz,
  add column offer_minor integer check (offer_minor > 0),
  add column offer_status text check (offer_status in ('pending', 'accepted', 'refused')),
  add column return_postage_by text check (return_postage_by in ('seller', 'buyer')),
  add column return_asked_by text check (return_asked_by in ('seller', 'staff')),
  add column return_carrier text,
  add column return_tracking_ref text check (char_length(return_tracking_ref) <= 60),
  add column return_sent_at timestamptz,
  add column return_received_at timestamptz,
  add column escalated_at timestamptz,
  add column refunded_minor integer not null default 0 check (refunded_minor >= 0);

update public.disputes
  set problem = case when kind = 'not_received' then 'not_received' else 'not_as_described' end,
      stage = case when status = 'open' then 'staff' else 'closed' end;
alter table public.disputes
  alter column problem set not null,
  alter column problem set default 'not_as_described',
  add constraint disputes_problem_check
    check (problem in ('not_as_described', 'damaged', 'wrong_book', 'missing_pages', 'not_received')),
  add constraint disputes_return_tracking check (
    (return_sent_at is null) = (return_tracking_ref is null)),
  add constraint disputes_stage_settled check ((stage = 'closed') = (status <> 'open'));

-- Reports written the older way (staff's own tools, the demo seed) name no problem: it follows
-- from their kind (the column's default is "not as described"); and a report settled is closed.
create or replace function public.disputes_fill_stage()
returns trigger language plpgsql as $$
begin
  -- A parcel that never came is always "not received"; the default is "not as described".
  if new.kind = 'not_received' then new.problem := 'not_received'; end if;
  if new.status <> 'open' then new.stage := 'closed'; end if;
  return new;
end;
$$;
create trigger disputes_fill_stage before insert or update on public.disputes
  for each row execute function public.disputes_fill_stage();

-- The seller's answer is due: the job finds these.
create index disputes_respond_by_idx on public.disputes (respond_by) where stage = 'seller';

-- A private seller may choose to accept returns (shown on their listings); charities always do.
alter table public.profiles add column accepts_returns boolean not null default false;
