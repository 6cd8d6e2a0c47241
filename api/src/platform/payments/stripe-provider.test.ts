/** Stripe webhook verification, offline, with Stripe's own signing helper. */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from './port.ts';
import { createStripeProvider } from './stripe-provider.ts';

const SECRET = 'whsec_test_0123456789abcdef';
const client = new Stripe('sk_test_offline_0123456789', { maxNetworkRetries: 0 });
const provider = createStripeProvider({
  secretKey: 'sk_test_offline_0123456789',
  webhookSecret: SECRET,
  client,
});

function stripeEvent(type: string, session: Record<string, unknown>) {
  return JSON.stringify({
    id: `evt_${type.replaceAll('.', '_')}`,
    object: 'event',
    type,
    data: { object: { object: 'checkout.session', ...session } },
  });
}

function signed(payload: string, secret = SECRET, timestamp?: number) {
  return client.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

describe('Stripe webhooks', () => {
  it('turns a verified paid checkout session into payment.succeeded', () => {
    const body = stripeEvent('checkout.session.completed', {
      id: 'cs_test_1',
      payment_status: 'paid',
      amount_total: 1219,
    });
    const event = provider.parseWebhook(body, { 'stripe-signature': signed(body) });
    expect(event).toMatchObject({
      id: 'evt_checkout_session_completed',
      type: 'payment.succeeded',
      providerRef: 'cs_test_1',
      amountMinor: 1219,
    });
  });

  it('maps expiry and async failure, and ignores an unpaid completion', () => {
    const expired = stripeEvent('checkout.session.expired', { id: 'cs_test_2' });
    expect(provider.parseWebhook(expired, { 'stripe-signature': signed(expired) }).type).toBe(
      'payment.abandoned',
    );
    const failed = stripeEvent('checkout.session.async_payment_failed', { id: 'cs_test_3' });
    expect(provider.parseWebhook(failed, { 'stripe-signature': signed(failed) }).type).toBe('payment.failed');
    const unpaid = stripeEvent('checkout.session.completed', { id: 'cs_test_4', payment_status: 'unpaid' });
    expect(provider.parseWebhook(unpaid, { 'stripe-signature': signed(unpaid) }).type).toBe('ignored');
  });

  it('refuses a wrong secret, a tampered body and an old signature', () => {
    const body = stripeEvent('checkout.session.completed', {
      id: 'cs_test_5',
      payment_status: 'paid',
      amount_total: 500,
    });
    expect(() => provider.parseWebhook(body, { 'stripe-signature': signed(body, 'whsec_wrong') })).toThrow(
      WebhookSignatureError,
    );
    expect(() =>
      provider.parseWebhook(body.replace('500', '5'), { 'stripe-signature': signed(body) }),
    ).toThrow(WebhookSignatureError);
    const old = Math.floor(Date.now() / 1000) - 3600;
    expect(() => provider.parseWebhook(body, { 'stripe-signature': signed(body, SECRET, old) })).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider.parseWebhook(body, {})).toThrow(WebhookSignatureError);
  });
});

describe('finishing a payment later (resumeCheckout)', () => {
  const input = {
    orderId: '5b0f3f2e-8f7e-4c1e-9d55-2b7f6c1a9e01',
    reference: 'RS-ABC123',
    amountMinor: 1219,
    description: 'Middlemarch (order RS-ABC123)',
    customerEmail: 'buyer@example.com',
    successUrl: 'https://reshelf.example/checkout/success?order=5b0f3f2e-8f7e-4c1e-9d55-2b7f6c1a9e01',
    cancelUrl: 'https://reshelf.example/checkout/cancel?order=5b0f3f2e-8f7e-4c1e-9d55-2b7f6c1a9e01',
    siteOrigin: 'https://reshelf.example',
    expiresAt: new Date(Date.now() + 10 * 60_000),
  };

  /** A Stripe client whose sessions are whatever the test says; it records what is asked. */
  function fakeStripe(session: { status: 'open' | 'complete' | 'expired'; url: string | null }) {
    const calls: { retrieved: string[]; created: Record<string, unknown>[] } = { retrieved: [], created: [] };
    const stub = {
      checkout: {
        sessions: {
          async retrieve(id: string) {
            calls.retrieved.push(id);
            return { id, ...session };
          },
          async create(params: Record<string, unknown>) {
            calls.created.push(params);
            return {
              id: 'cs_test_fresh',
              status: 'open',
              url: 'https://checkout.stripe.com/c/pay/cs_test_fresh',
            };
          },
        },
      },
    } as unknown as Stripe;
    return {
      calls,
      provider: createStripeProvider({ secretKey: 'sk_test_x', webhookSecret: SECRET, client: stub }),
    };
  }

  it('sends the buyer back to the same Checkout page while its session is open', async () => {
    const { calls, provider } = fakeStripe({
      status: 'open',
      url: 'https://checkout.stripe.com/c/pay/cs_test_open',
    });
    await expect(provider.resumeCheckout('cs_test_open', input)).resolves.toEqual({
      providerRef: 'cs_test_open',
      redirectUrl: 'https://checkout.stripe.com/c/pay/cs_test_open',
    });
    expect(calls).toEqual({ retrieved: ['cs_test_open'], created: [] });
  });

  it('opens a new session for the same order once the old one has expired', async () => {
    const { calls, provider } = fakeStripe({ status: 'expired', url: null });
    await expect(provider.resumeCheckout('cs_test_old', input)).resolves.toEqual({
      providerRef: 'cs_test_fresh',
      redirectUrl: 'https://checkout.stripe.com/c/pay/cs_test_fresh',
    });
    expect(calls.created).toHaveLength(1);
    expect(calls.created[0]).toMatchObject({
      client_reference_id: input.orderId,
      metadata: { orderId: input.orderId, reference: input.reference },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
  });

  it('sends a buyer whose session is already paid to the success page', async () => {
    const { calls, provider } = fakeStripe({ status: 'complete', url: null });
    await expect(provider.resumeCheckout('cs_test_paid', input)).resolves.toEqual({
      providerRef: 'cs_test_paid',
      redirectUrl: input.successUrl,
    });
    expect(calls.created).toEqual([]);
  });
});
