/** Stripe webhook verification, offline, with Stripe's own signing helper. */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { createStripeProvider } from './stripe-provider.ts';
import { WebhookSignatureError } from './types.ts';

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
