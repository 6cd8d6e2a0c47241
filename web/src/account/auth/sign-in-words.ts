/**
 * What /login says to a person sent there from a page that needs an account (a guarded page,
 * "Buy now"): they may have one or not, so it greets neither a newcomer nor a regular ("Welcome
 * back"). Its own file so the browser tests read the same words.
 */
export const SIGN_IN_TO_CONTINUE = 'Sign in, or create an account, to continue.';
