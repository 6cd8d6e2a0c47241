-- Reading lists (issue 38, decision 0090): a row of a Goodreads or StoryGraph export is matched
-- to a work by title and first author's surname through the catalogue's grouping key,
-- `work_key(title, authors)` = 'title|surname'. An Open Library work's key carries its id after
-- a further '|' ('title|surname|ol27448w'), so the match is on the key's first two parts: this
-- index makes that a lookup per row rather than a scan of every work.
create index works_title_author_key_idx on public.works
  ((split_part(work_key, '|', 1) || '|' || split_part(work_key, '|', 2)));
