-- Download your data (UK GDPR right of access): members download a copy of their data from
-- /account/settings ("Download your data"), and close their account there. The privacy policy's "Your rights" said to ask us for
-- it. The seeded page (api/src/seed/pages/privacy-policy.md) says the same for a new site; this
-- corrects a site seeded before. Only a page still carrying the seeded sentence is changed: words
-- staff have rewritten at /admin are left alone.

update public.pages
set body_markdown = replace(body_markdown,
  'You can ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it.',
  'You can download a copy of your data yourself, as a file other apps can read: choose "Download your data" in [Account settings](/account/settings#your-data), where you can also close your account. You can also ask us for a copy, ask us to correct or delete your data, object to how we use it, or ask us to restrict it.')
where slug = 'privacy-policy'
  and strpos(body_markdown, 'You can ask for a copy of your data, ask us to correct or delete it, object to how we use it, or ask us to restrict it.') > 0;

-- And "How long we keep it": members close their account themselves (Account settings, "Close
-- your account"); what closing does, as the seeded page says it.
update public.pages
set body_markdown = replace(body_markdown,
  'Order and payment records are kept for six years after the end of the tax year they relate to. Contact messages are kept for two years. If you close your account, we delete or anonymise everything else within 30 days.',
  'Order and payment records (with each order''s delivery address) are kept for six years after the end of the tax year they relate to. Contact messages are kept for two years. You can close your account yourself at any time in Account settings, under "Close your account". When you do, your books on sale are withdrawn, you can no longer sign in, your email address is freed, and reviews and messages you wrote stay for the people you traded with, shown as written by "Former member". We delete or anonymise everything else within 30 days.')
where slug = 'privacy-policy'
  and strpos(body_markdown, 'Order and payment records are kept for six years after the end of the tax year they relate to. Contact messages are kept for two years. If you close your account, we delete or anonymise everything else within 30 days.') > 0;
