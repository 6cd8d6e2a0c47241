-- Photo sizes (decision 0063): listing photos are stored in every width of PHOTO_WIDTHS in AVIF
-- and WebP. Photos stored before that (the demo covers, and any real ones) get their sizes from
-- the job photos.sizes, a few photos a round; this row is how far it has come, so a restart goes
-- on from there and a finished backfill costs one lookup a round. A new version (more widths,
-- another format) starts again from the first listing.
create table public.photo_size_backfill (
  version integer primary key check (version > 0),
  -- Listings are walked in id order: every listing up to this one is done.
  after_listing uuid,
  photos integer not null default 0 check (photos >= 0),
  started_at timestamptz not null default now(),
  finished_at timestamptz
);

alter table public.photo_size_backfill enable row level security;
