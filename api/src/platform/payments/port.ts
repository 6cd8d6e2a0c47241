/**
 * The payment port (brief §2). Embedded: a local test provider with a hosted-style payment
 * page and signed webhooks. Hosted: Stripe Checkout. Checkout and the order lifecycle see
 * only this interface.
 */

export interface CheckoutSessionInput {
  orderId: string;
  reference: string;
  amountMinor: number;
  description: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /**
   * The shop's own origin (config.siteOrigin), where the test provider serves its payment page.
   * The success and cancel URLs lead elsewhere for a checkout started in the app (decision 0029).
   */
  siteOrigin: string;
  /** When the provider should give up on the session (the reservation's end). */
  expiresAt: Date;
}

export interface CheckoutSession {
  providerRef: string;
  /** Where the buyer pays. */
  redirectUrl: string;
}

export type PaymentEventType = 'payment.succeeded' | 'payment.failed' | 'payment.abandoned' | 'ignored';

export interface PaymentEvent {
  /** The provider's own event id: a delivery seen before changes nothing. */
  id: string;
  type: PaymentEventType;
  providerRef: string;
  amountMinor?: number;
  /** The raw event, kept for the payment log. */
  raw: unknown;
}

export class WebhookSignatureError extends Error {
  constructor(message = 'The webhook signature is not valid') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** A signed webhook whose event is not one the provider sends (nothing is stored). */
export class WebhookEventError extends Error {
  constructor(problem: string) {
    super(`The webhook event is not one we know: ${problem}`);
    this.name = 'WebhookEventError';
  }
}

export interface PaymentProvider {
  readonly kind: 'test' | 'stripe';
  createCheckout(input: CheckoutSessionInput): Promise<CheckoutSession>;
  /**
   * The buyer is back to finish paying an order: the same session while it is still open (the
   * same reference and page), else a new session for the same order (a new reference). A
   * session already paid answers with its reference and the success address.
   */
  resumeCheckout(providerRef: string, input: CheckoutSessionInput): Promise<CheckoutSession>;
  /** Verifies the signature and reads the event; throws WebhookSignatureError or WebhookEventError. */
  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): PaymentEvent;
  /** Gives money back; never more than was paid (the caller checks the ledger first). */
  refund(input: { providerRef: string; amountMinor: number; reason: string }): Promise<{ refundRef: string }>;
}
