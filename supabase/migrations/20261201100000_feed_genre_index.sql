-- Issue 26, the members' reads at 100k listings (docs/performance.md, "Signed-in reads").
--
-- The feed's new listings in a followed genre: newest first among the copies the feed shows
-- (on sale, reserved or sold; published). `genre_ids` has only a GIN index, which cannot give
-- rows in time order, so each followed genre read every listing (a sequential scan of 100,000
-- rows, about 50 ms a genre) to sort them and keep 21. Walking this index newest first and
-- keeping the rows of the genre stops after the page (about 200 index entries for a genre of
-- one listing in ten); a later page starts at its cursor's time (the keyset's first column).
create index listings_feed_published_idx on public.listings (published_at desc, id desc)
  where status in ('active', 'reserved', 'sold') and published_at is not null;
