-- Platform reporting (SI 2023/817) for business sellers that are companies (issue 35, decision
-- 0073): an entity seller gives its legal name, its company number (in registered_number, as a
-- charity gives its charity number) and its address, and its UTR if it has one.
alter table public.reporting_details drop constraint reporting_details_kind_check;
alter table public.reporting_details
  add constraint reporting_details_kind_check check (kind in ('individual', 'charity', 'company')),
  add constraint reporting_details_company check (
    kind <> 'company'
    or (legal_name is not null
        and registered_number ~ '^([0-9]{8}|(SC|NI|OC|SO|NC|R0|LP|SL)[0-9]{6})$')
  );
