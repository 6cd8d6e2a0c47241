/**
 * Stripe Checkout behind the payment port (hosted backend). The session carries the order
 * id; webhooks are verified with Stripe's own signature check. Refunds go to the session's
 * payment intent.
 */
import Stripe from 'stripe';
import {
  type CheckoutSession,
  type CheckoutSessionInput,
  type PaymentProvider,
  WebhookSignatureError,
} from './port.ts';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Tests pass a client whose HTTP layer is faked. */
  client?: Stripe;
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = options.client ?? new Stripe(options.secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  async function createCheckout(input: CheckoutSessionInput): Promise<CheckoutSession> {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      client_reference_id: input.orderId,
      customer_email: input.customerEmail,
      metadata: { orderId: input.orderId, reference: input.reference },
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: 'gbp',
            unit_amount: input.amountMinor,
            product_data: { name: input.description },
          },
        },
      ],
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      // Stripe allows 30 minutes at the least; the reservation lapses sooner and the order
      // is cancelled, so a late payment is refunded by the webhook handler.
      expires_at: Math.max(
        Math.floor(input.expiresAt.getTime() / 1000),
        Math.floor(Date.now() / 1000) + 30 * 60,
      ),
    });
    if (!session.url) throw new Error('Stripe returned no checkout URL');
    return { providerRef: session.id, redirectUrl: session.url };
  }

  return {
    kind: 'stripe',
    createCheckout,

    async resumeCheckout(providerRef, input) {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      // Still open: the same Checkout page.
      if (session.status === 'open' && session.url) return { providerRef, redirectUrl: session.url };
      // Paid: the success page waits for the webhook that says so.
      if (session.status === 'complete') return { providerRef, redirectUrl: input.successUrl };
      // Expired: a new session for the same order.
      return createCheckout(input);
    },

    parseWebhook(rawBody, headers) {
      const signature = headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          Array.isArray(signature) ? (signature[0] ?? '') : (signature ?? ''),
          options.webhookSecret,
        );
      } catch (error) {
        throw new WebhookSignatureError((error as Error).message);
      }
      const session = event.data.object as Stripe.Checkout.Session;
      const base = { id: event.id, providerRef: session.id, raw: event };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          return session.payment_status === 'paid'
            ? { ...base, type: 'payment.succeeded', amountMinor: session.amount_total ?? undefined }
            : { ...base, type: 'ignored' };
        case 'checkout.session.async_payment_failed':
          return { ...base, type: 'payment.failed' };
        case 'checkout.session.expired':
          return { ...base, type: 'payment.abandoned' };
        default:
          return { ...base, type: 'ignored' };
      }
    },

    async refund(input) {
      const session = await stripe.checkout.sessions.retrieve(input.providerRef);
      const paymentIntent =
        typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
      if (!paymentIntent) throw new Error('This Stripe session has no payment to refund');
      const refund = await stripe.refunds.create({
        payment_intent: paymentIntent,
        amount: input.amountMinor,
        metadata: { reason: input.reason.slice(0, 450) },
      });
      return { refundRef: refund.id };
    },
  };
}
