-- Download your data (UK GDPR right of access): members download a copy of their data from
-- /account/settings ("Download your data"). The privacy policy's "Your rights" said to ask us for
-- it. The seeded page (api/src/seed/pages/privacy-policy.md) says the same for a new site; this
-- corrects a site seeded before. Only a page still carrying the seeded sentence is changed: words
-- staff have rewritten at /admin are left alone.

update public.pages
set body_markdown = replace(body_markdown,
  'You can ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it.',
  'You can download a copy of your data yourself, as a file other apps can read: choose "Download your data" in [Account settings](/account/settings#your-data). You can also ask us for a copy, ask us to correct or delete your data, object to how we use it, or ask us to restrict it.')
where slug = 'privacy-policy'
  and strpos(body_markdown, 'You can ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it.') > 0;
