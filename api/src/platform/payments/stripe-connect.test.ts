/**
 * The Stripe adapter's Connect side, offline: a real Stripe client whose HTTP layer is
 * a recording fetch (the request shapes: method, path, form body, Idempotency-Key and
 * Stripe-Account headers), and webhooks signed with Stripe's own test helper.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from './port.ts';
import { accountStatus, createStripeProvider } from './stripe-provider.ts';

const SECRET = 'whsec_test_connect_0123456789';

interface Recorded {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | null;
  stripeAccount: string | null;
}

/** A Stripe client answering each path with what the test gives, recording every request. */
function recordingStripe(answers: Record<string, (body: URLSearchParams) => unknown>) {
  const requests: Recorded[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const headers = new Headers(init?.headers);
    const body = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
    const method = init?.method ?? 'GET';
    requests.push({
      method,
      path: `${url.pathname}${url.search}`,
      body,
      idempotencyKey: headers.get('idempotency-key'),
      stripeAccount: headers.get('stripe-account'),
    });
    const key = `${method} ${url.pathname}`;
    const answer = answers[key];
    if (!answer)
      return new Response(JSON.stringify({ error: { message: `no answer for ${key}` } }), { status: 404 });
    return new Response(JSON.stringify(answer(body)), {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': 'req_test' },
    });
  }) as typeof fetch;
  const client = new Stripe('sk_test_offline_connect', {
    httpClient: Stripe.createFetchHttpClient(fetchFn),
    maxNetworkRetries: 0,
  });
  return {
    requests,
    provider: createStripeProvider({ secretKey: 'sk_test_offline_connect', webhookSecret: SECRET, client }),
    client,
  };
}

function account(
  overrides: Omit<Partial<Stripe.Account>, 'requirements'> & {
    requirements?: Partial<Stripe.Account.Requirements>;
  },
) {
  const { requirements, ...rest } = overrides;
  return {
    id: 'acct_1',
    object: 'account',
    details_submitted: false,
    payouts_enabled: false,
    charges_enabled: false,
    requirements: { currently_due: [], past_due: [], disabled_reason: null, ...requirements },
    ...rest,
  } as unknown as Stripe.Account;
}

describe('Stripe Connect requests', () => {
  it('makes a GB Express account with manual payouts, and an onboarding link', async () => {
    const { requests, provider } = recordingStripe({
      'POST /v1/accounts': () => ({ id: 'acct_new', object: 'account' }),
      'POST /v1/account_links': () => ({
        object: 'account_link',
        url: 'https://connect.stripe.com/setup/e/acct_new/x',
      }),
    });
    await expect(
      provider.createConnectedAccount({
        userId: 'user-1',
        email: 'seller@example.com',
        businessType: 'individual',
      }),
    ).resolves.toEqual({ accountId: 'acct_new' });
    await expect(
      provider.createOnboardingLink({
        accountId: 'acct_new',
        returnUrl: 'https://reshelf.example/account/payouts?onboarding=return',
        refreshUrl: 'https://reshelf.example/account/payouts?onboarding=refresh',
        siteOrigin: 'https://reshelf.example',
      }),
    ).resolves.toEqual({ url: 'https://connect.stripe.com/setup/e/acct_new/x' });
    const [created, link] = requests;
    expect(created).toMatchObject({ method: 'POST', path: '/v1/accounts', idempotencyKey: 'account:user-1' });
    expect(Object.fromEntries(created!.body)).toMatchObject({
      type: 'express',
      country: 'GB',
      email: 'seller@example.com',
      business_type: 'individual',
      'capabilities[transfers][requested]': 'true',
      'settings[payouts][schedule][interval]': 'manual',
      'metadata[userId]': 'user-1',
    });
    expect(Object.fromEntries(link!.body)).toEqual({
      account: 'acct_new',
      type: 'account_onboarding',
      refresh_url: 'https://reshelf.example/account/payouts?onboarding=refresh',
      return_url: 'https://reshelf.example/account/payouts?onboarding=return',
    });
  });

  it('transfers exactly the net from the buyer’s charge, with the idempotency key', async () => {
    const { requests, provider } = recordingStripe({
      'GET /v1/checkout/sessions/cs_test_paid': () => ({
        id: 'cs_test_paid',
        object: 'checkout.session',
        payment_intent: { id: 'pi_1', object: 'payment_intent', latest_charge: 'ch_1' },
      }),
      'POST /v1/transfers': () => ({ id: 'tr_1', object: 'transfer' }),
    });
    await expect(
      provider.createTransfer({
        amountMinor: 1085,
        destinationAccountId: 'acct_seller',
        sourcePaymentRef: 'cs_test_paid',
        idempotencyKey: 'transfer:payout-1',
        reshelfId: 'transfer-row-1',
        orderReference: 'RS-ABC123',
      }),
    ).resolves.toEqual({ transferRef: 'tr_1' });
    expect(requests[0]?.path).toBe('/v1/checkout/sessions/cs_test_paid?expand[0]=payment_intent');
    expect(requests[1]).toMatchObject({
      method: 'POST',
      path: '/v1/transfers',
      idempotencyKey: 'transfer:payout-1',
    });
    expect(Object.fromEntries(requests[1]!.body)).toEqual({
      amount: '1085',
      currency: 'gbp',
      destination: 'acct_seller',
      source_transaction: 'ch_1',
      'metadata[reshelfId]': 'transfer-row-1',
      'metadata[order]': 'RS-ABC123',
    });
  });

  it('reverses part of a transfer, pays out on the connected account, and refunds with keys', async () => {
    const { requests, provider } = recordingStripe({
      'POST /v1/transfers/tr_1/reversals': () => ({ id: 'trr_1', object: 'transfer_reversal' }),
      'POST /v1/payouts': () => ({
        id: 'po_1',
        object: 'payout',
        status: 'in_transit',
        amount: 2000,
        arrival_date: 1_800_000_000,
        metadata: {},
      }),
      'GET /v1/checkout/sessions/cs_test_paid': () => ({
        id: 'cs_test_paid',
        object: 'checkout.session',
        payment_intent: 'pi_1',
      }),
      'POST /v1/refunds': () => ({ id: 're_1', object: 'refund' }),
    });
    await expect(
      provider.reverseTransfer({
        transferRef: 'tr_1',
        amountMinor: 300,
        idempotencyKey: 'reversal:t:0:300',
        reason: 'Refund',
      }),
    ).resolves.toEqual({ reversalRef: 'trr_1' });
    await expect(
      provider.createPayout({
        accountId: 'acct_seller',
        amountMinor: 2000,
        idempotencyKey: 'payout:p1',
        reshelfId: 'p1',
      }),
    ).resolves.toEqual({ payoutRef: 'po_1', status: 'in_transit', arrivalDate: '2027-01-15' });
    await expect(
      provider.refund({
        providerRef: 'cs_test_paid',
        amountMinor: 500,
        reason: 'Damaged',
        idempotencyKey: 'refund:pay:0:500',
      }),
    ).resolves.toEqual({ refundRef: 're_1' });
    const [reversal, payout, , refund] = requests;
    expect(reversal).toMatchObject({
      path: '/v1/transfers/tr_1/reversals',
      idempotencyKey: 'reversal:t:0:300',
    });
    expect(reversal!.body.get('amount')).toBe('300');
    expect(payout).toMatchObject({
      path: '/v1/payouts',
      idempotencyKey: 'payout:p1',
      stripeAccount: 'acct_seller',
    });
    expect(Object.fromEntries(payout!.body)).toEqual({
      amount: '2000',
      currency: 'gbp',
      'metadata[reshelfId]': 'p1',
    });
    expect(refund).toMatchObject({
      path: '/v1/refunds',
      idempotencyKey: 'refund:pay:0:500',
      stripeAccount: null,
    });
    expect(Object.fromEntries(refund!.body)).toMatchObject({ payment_intent: 'pi_1', amount: '500' });
  });
});

describe('an account’s state', () => {
  it('reads pending, needs information, active, restricted and rejected', () => {
    expect(accountStatus(account({})).state).toBe('pending');
    expect(
      accountStatus(
        account({ details_submitted: true, requirements: { currently_due: ['external_account'] } }),
      ),
    ).toMatchObject({ state: 'needs_information', requirementsDue: ['external_account'] });
    expect(accountStatus(account({ details_submitted: true, payouts_enabled: true })).state).toBe('active');
    expect(
      accountStatus(
        account({ details_submitted: true, requirements: { disabled_reason: 'platform_paused' } }),
      ).state,
    ).toBe('restricted');
    expect(
      accountStatus(account({ details_submitted: true, requirements: { disabled_reason: 'rejected.fraud' } }))
        .state,
    ).toBe('rejected');
  });
});

describe('Connect webhooks', () => {
  const { client, provider } = recordingStripe({});
  const signed = (payload: string) => ({
    'stripe-signature': client.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
  });
  const event = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id: `evt_${type.replaceAll('.', '_')}`,
      object: 'event',
      type,
      created: 1_800_000_000,
      data: { object },
      ...extra,
    });

  it('reads account.updated into the account’s state, with the event’s time', () => {
    const body = event(
      'account.updated',
      {
        id: 'acct_seller',
        object: 'account',
        details_submitted: true,
        payouts_enabled: false,
        requirements: {
          currently_due: ['individual.verification.document'],
          past_due: [],
          disabled_reason: 'requirements.past_due',
        },
      },
      { account: 'acct_seller' },
    );
    expect(provider.parseWebhook(body, signed(body))).toMatchObject({
      type: 'account.updated',
      accountId: 'acct_seller',
      createdAt: new Date(1_800_000_000_000),
      account: { state: 'needs_information', requirementsDue: ['individual.verification.document'] },
    });
  });

  it('reads a connected account’s payout events, and ignores the platform’s own payouts', () => {
    const failed = event(
      'payout.failed',
      {
        id: 'po_1',
        object: 'payout',
        status: 'failed',
        amount: 2000,
        failure_code: 'account_closed',
        failure_message: 'The bank account has been closed',
        arrival_date: 1_800_000_000,
        metadata: { reshelfId: 'row-1' },
      },
      { account: 'acct_seller' },
    );
    expect(provider.parseWebhook(failed, signed(failed))).toMatchObject({
      type: 'payout.updated',
      accountId: 'acct_seller',
      payout: {
        payoutRef: 'po_1',
        reshelfId: 'row-1',
        status: 'failed',
        failureCode: 'account_closed',
        amountMinor: 2000,
      },
    });
    const platform = event('payout.paid', {
      id: 'po_2',
      object: 'payout',
      status: 'paid',
      amount: 1,
      metadata: {},
    });
    expect(provider.parseWebhook(platform, signed(platform)).type).toBe('ignored');
  });

  it('reads transfer events and charge.refunded', () => {
    const reversed = event('transfer.reversed', {
      id: 'tr_1',
      object: 'transfer',
      amount: 1085,
      amount_reversed: 300,
      metadata: { reshelfId: 'row-2' },
    });
    expect(provider.parseWebhook(reversed, signed(reversed))).toMatchObject({
      type: 'transfer.updated',
      transfer: { transferRef: 'tr_1', reshelfId: 'row-2', amountMinor: 1085, reversedMinor: 300 },
    });
    const refunded = event('charge.refunded', { id: 'ch_1', object: 'charge', amount_refunded: 500 });
    expect(provider.parseWebhook(refunded, signed(refunded))).toMatchObject({
      type: 'charge.refunded',
      amountMinor: 500,
    });
  });

  it('accepts the Connect endpoint’s own secret when it is configured', () => {
    const body = event('account.updated', { id: 'acct_y', object: 'account' }, { account: 'acct_y' });
    const header = {
      'stripe-signature': client.webhooks.generateTestHeaderString({
        payload: body,
        secret: 'whsec_connect',
      }),
    };
    expect(() => provider.parseWebhook(body, header)).toThrow(WebhookSignatureError);
    const both = createStripeProvider({
      secretKey: 'sk_test_offline_connect',
      webhookSecret: SECRET,
      connectWebhookSecret: 'whsec_connect',
      client,
    });
    expect(both.parseWebhook(body, header)).toMatchObject({ type: 'account.updated', accountId: 'acct_y' });
  });

  it('refuses a Connect event signed with another secret', () => {
    const body = event('account.updated', { id: 'acct_x', object: 'account' }, { account: 'acct_x' });
    const forged = {
      'stripe-signature': client.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_other' }),
    };
    expect(() => provider.parseWebhook(body, forged)).toThrow(WebhookSignatureError);
  });
});
