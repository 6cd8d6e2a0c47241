import type { CapacitorConfig } from '@capacitor/cli';

/**
 * Paying in the app (decision 0029): the payment page opens in the app's own web view, and the
 * provider sends the buyer back to the app's routes (capacitor://localhost/checkout/success on
 * iOS, https://localhost/... on Android), where the app carries on with its tokens. Capacitor
 * sends any other address to the system browser, from which nothing comes back to the app, so
 * the pages of a payment are listed here: the BFF's own (the test provider's page, from the same
 * VITE_API_ORIGIN the web build was given) and Stripe Checkout's.
 */
const apiOrigin = process.env.VITE_API_ORIGIN?.trim();
const paymentHosts = [
  ...(apiOrigin ? [new URL(apiOrigin).hostname] : []),
  'checkout.stripe.com',
  'hooks.stripe.com',
];

const config: CapacitorConfig = {
  appId: 'uk.co.reshelf.app',
  appName: 'Reshelf',
  webDir: 'dist',
  server: { allowNavigation: paymentHosts },
};

export default config;
