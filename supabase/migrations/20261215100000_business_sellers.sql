-- Traders and consumers (issue 35, decision 0073). A member who sells as a trade says so in their
-- selling settings and gives the details a trader must show before the order (Consumer Contracts
-- Regulations 2013): trading name, the geographic address they trade from (not a PO box),
-- company number if a company, VAT number if registered, and an email buyers can reach them at.
-- A member may also say they sell privately (the settings stop asking). Nothing switches on its
-- own: a member who sells often is prompted, and answers.
create table public.seller_trade_declarations (
  user_id uuid primary key references auth.users (id) on delete cascade,
  trades boolean not null,
  trading_name text check (char_length(btrim(trading_name)) between 2 and 120),
  is_company boolean,
  company_number text check (company_number ~ '^([0-9]{8}|(SC|NI|OC|SO|NC|R0|LP|SL)[0-9]{6})$'),
  vat_number text check (vat_number ~ '^GB([0-9]{9}|[0-9]{12})$'),
  address_line1 text check (char_length(btrim(address_line1)) between 1 and 120),
  address_line2 text check (char_length(address_line2) <= 120),
  town text check (char_length(btrim(town)) between 1 and 80),
  postcode text check (char_length(postcode) between 5 and 8),
  contact_email text check (char_length(contact_email) between 3 and 320 and contact_email like '%@%'),
  declared_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- A trader has every detail a buyer must see; a company its number. A private answer has none.
  constraint seller_trade_declarations_business check (
    not trades
    or (trading_name is not null and is_company is not null and address_line1 is not null
        and town is not null and postcode is not null and contact_email is not null
        and (not is_company or company_number is not null))
  ),
  constraint seller_trade_declarations_private check (
    trades or (trading_name is null and address_line1 is null and company_number is null)
  )
);
create trigger seller_trade_declarations_touch before update on public.seller_trade_declarations
  for each row execute function public.touch_updated_at();
alter table public.seller_trade_declarations enable row level security;
