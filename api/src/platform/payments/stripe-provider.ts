/**
 * Stripe Checkout behind the payment port (hosted backend). The session carries the order
 * id; webhooks are verified with Stripe's own signature check. Refunds go to the session's
 * payment intent, with an idempotency key.
 *
 * Connect (decision 0046): sellers have Express accounts (GB, transfers capability,
 * payouts on demand so Reshelf says when money leaves), onboarded through account links. A
 * released sale is a transfer of exactly the seller's net from the buyer's charge
 * (`source_transaction`), a refund after release a transfer reversal, and a payout is made on the
 * connected account (`Stripe-Account`). Every money-moving request carries an idempotency key.
 * Connect webhooks (account.updated, transfer.*, payout.* from connected accounts,
 * charge.refunded) are read into the port's events.
 */
import Stripe from 'stripe';
import {
  type CheckoutSession,
  type CheckoutSessionInput,
  type ConnectedAccountStatus,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderPayoutState,
  type ProviderPayoutStatus,
  WebhookSignatureError,
} from './port.ts';

/** The state Reshelf keeps for a Stripe account. */
export function accountStatus(account: Stripe.Account): ConnectedAccountStatus {
  const requirements = account.requirements;
  const due = [...new Set([...(requirements?.past_due ?? []), ...(requirements?.currently_due ?? [])])];
  const disabledReason = requirements?.disabled_reason ?? null;
  const detailsSubmitted = account.details_submitted === true;
  const payoutsEnabled = account.payouts_enabled === true;
  let state: ConnectedAccountStatus['state'];
  if (disabledReason?.startsWith('rejected')) state = 'rejected';
  else if (payoutsEnabled && due.length === 0) state = 'active';
  else if (!detailsSubmitted) state = 'pending';
  else if (due.length > 0) state = 'needs_information';
  else if (disabledReason) state = 'restricted';
  else if (payoutsEnabled) state = 'active';
  else state = 'pending';
  return {
    accountId: account.id,
    state,
    detailsSubmitted,
    payoutsEnabled,
    requirementsDue: due,
    disabledReason,
  };
}

function payoutStatus(payout: Stripe.Payout, accountId: string): ProviderPayoutStatus {
  const states: Record<string, ProviderPayoutState> = {
    pending: 'pending',
    in_transit: 'in_transit',
    paid: 'paid',
    failed: 'failed',
    canceled: 'canceled',
  };
  return {
    payoutRef: payout.id,
    accountId,
    reshelfId: payout.metadata?.reshelfId ?? null,
    status: states[payout.status] ?? 'pending',
    amountMinor: payout.amount,
    failureCode: payout.failure_code ?? null,
    failureMessage: payout.failure_message ?? null,
    arrivalDate: payout.arrival_date ? new Date(payout.arrival_date * 1000).toISOString().slice(0, 10) : null,
  };
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** The Connect endpoint's signing secret, when its events come to a separate endpoint. */
  connectWebhookSecret?: string;
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
      const header = headers['stripe-signature'];
      const signature = Array.isArray(header) ? (header[0] ?? '') : (header ?? '');
      let event: Stripe.Event | undefined;
      let failure: unknown;
      // The platform endpoint's secret, then the Connect endpoint's (events from connected accounts).
      for (const secret of [options.webhookSecret, options.connectWebhookSecret]) {
        if (!secret || event) continue;
        try {
          event = stripe.webhooks.constructEvent(rawBody, signature, secret);
        } catch (error) {
          failure ??= error;
        }
      }
      if (!event) throw new WebhookSignatureError((failure as Error | undefined)?.message);
      const session = event.data.object as Stripe.Checkout.Session;
      const base = { id: event.id, providerRef: session.id, raw: event };
      const connect = readConnectEvent(event);
      if (connect) return connect;
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
      const refund = await stripe.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: input.amountMinor,
          metadata: { reason: input.reason.slice(0, 450) },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { refundRef: refund.id };
    },

    async createConnectedAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          country: 'GB',
          email: input.email,
          business_type: input.businessType,
          capabilities: { transfers: { requested: true } },
          // Reshelf says when money leaves (after the sale is released), not a schedule.
          settings: { payouts: { schedule: { interval: 'manual' } } },
          metadata: { userId: input.userId },
        },
        { idempotencyKey: `account:${input.userId}` },
      );
      return { accountId: account.id };
    },

    async createOnboardingLink(input) {
      const link = await stripe.accountLinks.create({
        account: input.accountId,
        type: 'account_onboarding',
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
      });
      return { url: link.url };
    },

    async retrieveAccount(accountId) {
      return accountStatus(await stripe.accounts.retrieve(accountId));
    },

    async createTransfer(input) {
      // source_transaction is the charge behind the buyer's Checkout session.
      const session = await stripe.checkout.sessions.retrieve(input.sourcePaymentRef, {
        expand: ['payment_intent'],
      });
      const intent = session.payment_intent;
      const charge = typeof intent === 'object' && intent ? idOf(intent.latest_charge) : null;
      if (!charge) throw new Error('This Stripe session has no charge to transfer from');
      const transfer = await stripe.transfers.create(
        {
          amount: input.amountMinor,
          currency: 'gbp',
          destination: input.destinationAccountId,
          source_transaction: charge,
          metadata: { reshelfId: input.reshelfId, order: input.orderReference },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { transferRef: transfer.id };
    },

    async reverseTransfer(input) {
      const reversal = await stripe.transfers.createReversal(
        input.transferRef,
        { amount: input.amountMinor, metadata: { reason: input.reason.slice(0, 450) } },
        { idempotencyKey: input.idempotencyKey },
      );
      return { reversalRef: reversal.id };
    },

    async createPayout(input) {
      const payout = await stripe.payouts.create(
        { amount: input.amountMinor, currency: 'gbp', metadata: { reshelfId: input.reshelfId } },
        { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
      );
      const status = payoutStatus(payout, input.accountId);
      return { payoutRef: payout.id, status: status.status, arrivalDate: status.arrivalDate };
    },
  };
}

/** The Connect events Reshelf follows, read into the port's terms; null for any other event. */
function readConnectEvent(event: Stripe.Event): PaymentEvent | null {
  const base = {
    id: event.id,
    createdAt: new Date(event.created * 1000),
    ...(event.account ? { accountId: event.account } : {}),
    raw: event,
  };
  switch (event.type) {
    case 'account.updated': {
      const account = accountStatus(event.data.object);
      return {
        ...base,
        type: 'account.updated',
        providerRef: account.accountId,
        accountId: account.accountId,
        account,
      };
    }
    case 'payout.created':
    case 'payout.updated':
    case 'payout.paid':
    case 'payout.failed':
    case 'payout.canceled': {
      // Payouts are made on connected accounts: the event says which.
      if (!event.account) return { ...base, type: 'ignored', providerRef: event.data.object.id };
      const payout = payoutStatus(event.data.object, event.account);
      return { ...base, type: 'payout.updated', providerRef: payout.payoutRef, payout };
    }
    case 'transfer.created':
    case 'transfer.updated':
    case 'transfer.reversed': {
      const transfer = event.data.object;
      return {
        ...base,
        type: 'transfer.updated',
        providerRef: transfer.id,
        transfer: {
          transferRef: transfer.id,
          reshelfId: transfer.metadata?.reshelfId ?? null,
          amountMinor: transfer.amount,
          reversedMinor: transfer.amount_reversed,
        },
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      return {
        ...base,
        type: 'charge.refunded',
        providerRef: charge.id,
        amountMinor: charge.amount_refunded,
      };
    }
    default:
      return null;
  }
}
