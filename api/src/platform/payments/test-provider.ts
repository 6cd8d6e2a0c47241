/**
 * The embedded test payment provider. It behaves like a hosted checkout: the buyer is sent
 * to its payment page (served by the BFF at /payments/test/<ref>) and pays or has the card
 * declined — the provider then posts a signed webhook to /api/webhooks/payments/test, exactly
 * as a real provider would, before sending the buyer back to the shop — or goes back to the
 * shop without paying, which, as with Stripe's back link, leaves the session open to come back
 * to. `abandon` is the session expiring (Stripe's checkout.session.expired). Signatures are
 * HMAC-SHA256 over "<timestamp>.<body>" with a key derived from the app secret; a stale
 * timestamp (over 5 minutes) is refused.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Secrets } from '../../secrets.ts';
import {
  type CheckoutSession,
  type CheckoutSessionInput,
  type PaymentEvent,
  type PaymentProvider,
  WebhookEventError,
  WebhookSignatureError,
} from './port.ts';

export const TEST_SIGNATURE_HEADER = 'x-reshelf-test-signature';
const TOLERANCE_SECONDS = 300;

export const TEST_OUTCOMES = ['success', 'decline', 'abandon'] as const;
export type TestOutcome = (typeof TEST_OUTCOMES)[number];

const EVENT_TYPES = {
  success: 'payment.succeeded',
  decline: 'payment.failed',
  abandon: 'payment.abandoned',
} as const satisfies Record<TestOutcome, PaymentEvent['type']>;

/** The events this provider sends, and nothing else (even correctly signed). */
const testEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(Object.values(EVENT_TYPES)),
  data: z.object({
    providerRef: z.string().min(1).max(200),
    amountMinor: z.number().int().min(0).optional(),
  }),
});

export interface TestProvider extends PaymentProvider {
  readonly kind: 'test';
  /** The signed webhook the provider sends for an outcome (body and headers). */
  signedEvent(
    providerRef: string,
    outcome: TestOutcome,
    amountMinor: number,
  ): { body: string; headers: Record<string, string> };
}

/** The query parameter on the payment page that names where to send the buyer back. */
export const TEST_RETURN_PARAM = 'return';

/**
 * The payment page, served by the BFF at the site's origin. When the buyer came from elsewhere
 * (the Capacitor app's own origin), the page carries that origin along and sends them back to
 * it, as a hosted provider sends them to the success and cancel URLs it was given; the page
 * honours only the app's origins there (payment.routes.ts), never any other.
 */
function pageUrl(input: CheckoutSessionInput, providerRef: string): string {
  // Not URL.origin, which is "null" for a scheme URL does not know (capacitor://).
  const success = new URL(input.successUrl);
  const back = `${success.protocol}//${success.host}`;
  const site = new URL(input.siteOrigin).origin;
  const page = new URL(`/payments/test/${providerRef}`, site);
  if (back !== site) page.searchParams.set(TEST_RETURN_PARAM, back);
  return page.href;
}

export function createTestProvider(options: { secrets: Secrets }): TestProvider {
  const sign = (timestamp: number, body: string) => options.secrets.sign('webhook', `${timestamp}.${body}`);
  return {
    kind: 'test',

    async createCheckout(input: CheckoutSessionInput): Promise<CheckoutSession> {
      const providerRef = `tp_${randomBytes(12).toString('hex')}`;
      return { providerRef, redirectUrl: pageUrl(input, providerRef) };
    },
    async resumeCheckout(providerRef, input) {
      // Its sessions stay open until paid, declined or expired by the shop: always the same page.
      return { providerRef, redirectUrl: pageUrl(input, providerRef) };
    },

    signedEvent(providerRef, outcome, amountMinor) {
      const body = JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: EVENT_TYPES[outcome],
        data: { providerRef, amountMinor },
      });
      const timestamp = Math.floor(Date.now() / 1000);
      return { body, headers: { [TEST_SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(timestamp, body)}` } };
    },

    parseWebhook(rawBody, headers) {
      const header = headers[TEST_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      const match = /^t=(\d+),v1=([A-Za-z0-9_-]+)$/.exec(value ?? '');
      if (!match) throw new WebhookSignatureError('The webhook has no valid signature header');
      const timestamp = Number(match[1]);
      if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) {
        throw new WebhookSignatureError('The webhook signature is too old');
      }
      if (!options.secrets.verify('webhook', `${timestamp}.${rawBody}`, match[2]!)) {
        throw new WebhookSignatureError();
      }
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new WebhookEventError('the body is not JSON');
      }
      const parsed = testEventSchema.safeParse(body);
      if (!parsed.success) {
        throw new WebhookEventError(
          parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`)
            .join('; '),
        );
      }
      const event = parsed.data;
      return {
        id: event.id,
        type: event.type,
        providerRef: event.data.providerRef,
        amountMinor: event.data.amountMinor,
        raw: event,
      };
    },

    async refund() {
      return { refundRef: `tr_${randomBytes(12).toString('hex')}` };
    },
  };
}
