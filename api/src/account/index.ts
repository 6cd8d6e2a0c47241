/**
 * The account domain's public surface: what the rest of the API may import from it
 * (api/scripts/check-imports.ts). Signing in and out, the member's profile and settings,
 * closing an account and downloading one's data, API tokens and notifications.
 */
export { accountDomainRouter } from './account.router.ts';
export { emailDueNotifications } from './notifications/notification-mail.ts';
