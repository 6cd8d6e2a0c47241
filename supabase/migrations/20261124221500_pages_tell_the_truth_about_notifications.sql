-- Issue 20: the FAQ and the help centre said wishlist news is only in the app and that no
-- email can be turned off. Now every notification is in the app (the bell), wishlist price
-- drops and unread messages are also emailed unless the member turns them off in
-- /account/settings or with the one-click unsubscribe link, and the rest are always emailed.
-- The seeded pages (api/src/seed/pages/) say the same for a new site; this corrects a site
-- seeded before. Only a page still carrying the seeded sentence is changed: words staff have
-- rewritten at /admin are left alone.

update public.pages
set body_markdown = replace(body_markdown,
  'Reshelf only emails you about your account and what you buy and sell: confirming your email address, resetting your password, your orders, sales and refunds, and anything our team needs to tell you about a listing or a message. You need these to buy and sell safely, so they can''t be turned off while you have an account. We don''t send newsletters or marketing emails: news about books on your wishlist (a lower price, or the book selling) appears under Notifications in your account instead. If we ever send other emails, each will have an unsubscribe link at the bottom that works without signing in. To stop every email, delete your account (see below).',
  'What happens to your offers, orders, sales and wishlist appears under Notifications (the bell at the top of every page), and most of it is emailed too. Emails about your account and what you buy and sell (confirming your email address, resetting your password, offers, your orders and sales, problems, refunds and payouts, and anything our team needs to tell you) can''t be turned off while you have an account: you need them to buy and sell safely. Two kinds of email are yours to choose: price drops on books in your wishlist, and unread messages (sent together in one email 10 minutes after they arrive, never one per message). Turn either off in [your email settings](/account/settings#emails), or with the unsubscribe link at the bottom of any such email, which works in one click without signing in. We don''t send newsletters or marketing emails. To stop every email, delete your account (see below).')
where slug = 'faq'
  and strpos(body_markdown, 'Reshelf only emails you about your account and what you buy and sell: confirming your email address, resetting your password, your orders, sales and refunds, and anything our team needs to tell you about a listing or a message. You need these to buy and sell safely, so they can''t be turned off while you have an account. We don''t send newsletters or marketing emails: news about books on your wishlist (a lower price, or the book selling) appears under Notifications in your account instead. If we ever send other emails, each will have an unsubscribe link at the bottom that works without signing in. To stop every email, delete your account (see below).') > 0;

update public.pages
set body_markdown = replace(body_markdown,
  'We email you only about your account, your orders and sales, and anything our team needs to tell you: these emails can''t be turned off while you have an account. News about books on your wishlist appears under Notifications instead. To close your account, see [the FAQ](/help-centre/faq).',
  'We email you about your account, your offers, orders and sales, and anything our team needs to tell you: these emails can''t be turned off while you have an account. Wishlist price drops and emails about unread messages are optional: turn them off in [your email settings](/account/settings#emails) or with the unsubscribe link in those emails. What happens to your offers, orders, sales and wishlist also appears under Notifications in your account. To close your account, see [the FAQ](/help-centre/faq).')
where slug = 'help-centre'
  and strpos(body_markdown, 'We email you only about your account, your orders and sales, and anything our team needs to tell you: these emails can''t be turned off while you have an account. News about books on your wishlist appears under Notifications instead. To close your account, see [the FAQ](/help-centre/faq).') > 0;
