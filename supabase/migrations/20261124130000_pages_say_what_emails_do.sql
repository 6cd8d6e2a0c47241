-- Issue 16: the FAQ said "change your email settings in your account" and the help centre
-- "change your email preferences from your account settings"; the account has no such
-- setting. Every email Reshelf sends today is about the account, orders and sales, or what
-- staff must tell someone (no newsletter or marketing email is sent; wishlist news is an
-- in-app notification), so the pages now say that. The seeded pages (api/src/seed/pages/)
-- say the same for a new site; this corrects a site seeded before. Only a page still carrying
-- the seeded sentence is changed: words staff have rewritten at /admin are left alone.

update public.pages
set body_markdown = replace(body_markdown,
  'Use the unsubscribe link at the bottom of any email, or change your email settings in your account. You''ll still get emails about your orders.',
  'Reshelf only emails you about your account and what you buy and sell: confirming your email address, resetting your password, your orders, sales and refunds, and anything our team needs to tell you about a listing or a message. You need these to buy and sell safely, so they can''t be turned off while you have an account. We don''t send newsletters or marketing emails: news about books on your wishlist (a lower price, or the book selling) appears under Notifications in your account instead. If we ever send other emails, each will have an unsubscribe link at the bottom that works without signing in. To stop every email, delete your account (see below).')
where slug = 'faq'
  and strpos(body_markdown, 'Use the unsubscribe link at the bottom of any email, or change your email settings in your account. You''ll still get emails about your orders.') > 0;

update public.pages
set body_markdown = replace(body_markdown,
  'Change your email preferences from your account settings, or use the unsubscribe link at the bottom of any email we send.',
  'We email you only about your account, your orders and sales, and anything our team needs to tell you: these emails can''t be turned off while you have an account. News about books on your wishlist appears under Notifications instead. To close your account, see [the FAQ](/help-centre/faq).')
where slug = 'help-centre'
  and strpos(body_markdown, 'Change your email preferences from your account settings, or use the unsubscribe link at the bottom of any email we send.') > 0;
