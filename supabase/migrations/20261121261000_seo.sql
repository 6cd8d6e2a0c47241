-- Admin operations (issue 9): search-engine titles and descriptions for static pages and
-- category pages, set by admins at /admin/seo. Empty (null) means the page's own: a static
-- page's title and description, a category's "{name} books" and its description. Both tables
-- already notify the public cache on change.

alter table public.pages
  add column seo_title text check (char_length(btrim(seo_title)) between 1 and 70),
  add column seo_description text check (char_length(btrim(seo_description)) between 1 and 160);

alter table public.categories
  add column seo_title text check (char_length(btrim(seo_title)) between 1 and 70),
  add column seo_description text check (char_length(btrim(seo_description)) between 1 and 160);
