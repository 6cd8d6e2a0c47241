/**
 * The embedded test payment provider. It behaves like a hosted checkout: the buyer is sent
 * to its payment page (served by the BFF at /payments/test/<ref>) and pays or has the card
 * declined — the provider then posts a signed webhook to /api/webhooks/payments/test, exactly
 * as a real provider would, before sending the buyer back to the shop — or goes back to the
 * shop without paying, which, as with Stripe's back link, leaves the session open to come back
 * to. `abandon` is the session expiring (Stripe's checkout.session.expired). Signatures are
 * HMAC-SHA256 over "<timestamp>.<body>" with a key derived from the app secret; a stale
 * timestamp (over 5 minutes) is refused.
 *
 * Connect (decision 0046), simulated locally: connected accounts (acct_test_…) are set
 * up on a local onboarding page (/payments/test/onboarding/<account>) whose outcomes are complete,
 * complete with a bank that refuses payouts, needs more information, or rejected; each posts a
 * signed account.updated webhook. Transfers, reversals, refunds and payouts answer at once (a
 * repeated idempotency key answers the first result); a payout then settles as paid, or failed
 * for an account whose bank refuses payouts, by a signed payout.updated webhook the provider
 * delivers afterwards (`flushEvents`, or the routes' deliverer), as Stripe does.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Secrets } from '../../secrets.ts';
import {
  type CheckoutSession,
  type CheckoutSessionInput,
  type ConnectedAccountStatus,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderPayoutStatus,
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

/** The onboarding page's outcomes. */
export const ONBOARDING_OUTCOMES = [
  'complete',
  'complete_payouts_fail',
  'needs_information',
  'rejected',
] as const;
export type OnboardingOutcome = (typeof ONBOARDING_OUTCOMES)[number];

/** What the test provider asks for when it "needs more information" (Stripe's requirement names). */
export const TEST_REQUIREMENTS_DUE = ['individual.verification.document', 'external_account'];

const ref = z.string().min(1).max(200);
const accountSchema = z.object({
  accountId: ref,
  state: z.enum(['pending', 'needs_information', 'active', 'restricted', 'rejected']),
  detailsSubmitted: z.boolean(),
  payoutsEnabled: z.boolean(),
  requirementsDue: z.array(z.string().max(200)).max(50),
  disabledReason: z.string().max(200).nullable(),
});
const payoutSchema = z.object({
  payoutRef: ref,
  accountId: ref,
  reshelfId: ref.nullable(),
  status: z.enum(['pending', 'in_transit', 'paid', 'failed', 'canceled']),
  amountMinor: z.number().int().min(0),
  failureCode: z.string().max(100).nullable(),
  failureMessage: z.string().max(500).nullable(),
  arrivalDate: z.string().max(10).nullable(),
});
const transferSchema = z.object({
  transferRef: ref,
  reshelfId: ref.nullable(),
  amountMinor: z.number().int().min(0),
  reversedMinor: z.number().int().min(0),
});

/** The events this provider sends, and nothing else (even correctly signed). */
const testEventSchema = z.discriminatedUnion('type', [
  z.object({
    id: ref,
    type: z.enum(Object.values(EVENT_TYPES)),
    created: z.number().int().optional(),
    data: z.object({ providerRef: ref, amountMinor: z.number().int().min(0).optional() }),
  }),
  z.object({
    id: ref,
    type: z.literal('account.updated'),
    created: z.number().int(),
    account: ref,
    data: z.object({ account: accountSchema }),
  }),
  z.object({
    id: ref,
    type: z.literal('payout.updated'),
    created: z.number().int(),
    account: ref,
    data: z.object({ payout: payoutSchema }),
  }),
  z.object({
    id: ref,
    type: z.literal('transfer.updated'),
    created: z.number().int(),
    data: z.object({ transfer: transferSchema }),
  }),
]);
type TestEvent = z.infer<typeof testEventSchema>;

/** A signed webhook, as the provider posts it. */
export interface SignedEvent {
  body: string;
  headers: Record<string, string>;
}

/** What the test provider was asked to do, in order (tests read it). */
export type TestCall =
  | { op: 'refund'; providerRef: string; amountMinor: number; idempotencyKey: string; refundRef: string }
  | { op: 'account'; userId: string; accountId: string }
  | {
      op: 'transfer';
      amountMinor: number;
      destination: string;
      source: string;
      idempotencyKey: string;
      transferRef: string;
    }
  | { op: 'reversal'; transferRef: string; amountMinor: number; idempotencyKey: string; reversalRef: string }
  | { op: 'payout'; accountId: string; amountMinor: number; idempotencyKey: string; payoutRef: string };

export interface TestProvider extends PaymentProvider {
  readonly kind: 'test';
  /** The signed webhook the provider sends for an outcome (body and headers). */
  signedEvent(providerRef: string, outcome: TestOutcome, amountMinor: number): SignedEvent;
  /**
   * The onboarding page's outcome for an account: its new state, and the signed account.updated
   * webhook that says so (the page delivers it).
   */
  onboard(
    accountId: string,
    outcome: OnboardingOutcome,
  ): { account: ConnectedAccountStatus; event: SignedEvent };
  /** Whether the provider made this account (the onboarding page refuses any other). */
  hasAccount(accountId: string): boolean;
  /**
   * A token that opens this account's onboarding page for ONBOARDING_LINK_SECONDS, as a Stripe
   * account link does: made only for the account's owner (createOnboardingLink is called from
   * their session, and the page makes fresh ones for the owner it lets in).
   */
  onboardingToken(accountId: string): string;
  /** Whether `token` was made for this account and has not expired. */
  verifyOnboardingToken(accountId: string, token: string): boolean;
  /**
   * Takes back an account this provider made before the process restarted (the test provider
   * keeps its records in memory; the database still knows the account and its state).
   */
  adoptAccount(account: ConnectedAccountStatus): void;
  /**
   * Where queued events are posted (the payment routes set it); none: they wait for takeEvents.
   * Answers the deliverer it replaces (the demo seed applies its own events, then puts it back).
   */
  setDeliverer(
    deliver: ((event: SignedEvent) => Promise<void>) | null,
  ): ((event: SignedEvent) => Promise<void>) | null;
  /** Delivers every queued event now, through the deliverer; resolves when they are delivered. */
  flushEvents(): Promise<void>;
  /** Takes the queued events without delivering them (a test delivers them, twice or out of order). */
  takeEvents(): SignedEvent[];
  /** Every request made of the provider, in order. */
  readonly calls: TestCall[];
}

/** The query parameter on the payment page that names where to send the buyer back. */
export const TEST_RETURN_PARAM = 'return';
/** The onboarding page's link token (query parameter) and how long one works. */
export const ONBOARDING_LINK_PARAM = 'link';
export const ONBOARDING_LINK_SECONDS = 60 * 60;

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

const hex = () => randomBytes(12).toString('hex');

export function createTestProvider(options: { secrets: Secrets }): TestProvider {
  const sign = (timestamp: number, body: string) => options.secrets.sign('webhook', `${timestamp}.${body}`);
  const signEvent = (event: TestEvent): SignedEvent => {
    const body = JSON.stringify(event);
    const timestamp = Math.floor(Date.now() / 1000);
    return { body, headers: { [TEST_SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(timestamp, body)}` } };
  };
  /** The provider's clock for events: strictly increasing, so their order is known. */
  let lastCreated = 0;
  const created = () => {
    lastCreated = Math.max(lastCreated + 1, Date.now());
    return lastCreated;
  };
  const accounts = new Map<string, ConnectedAccountStatus & { payoutsFail: boolean }>();
  const onboardingToken = (accountId: string) => {
    const expires = Math.floor(Date.now() / 1000) + ONBOARDING_LINK_SECONDS;
    return `${expires}.${options.secrets.sign('onboarding-link', `${accountId}.${expires}`)}`;
  };
  /** Idempotency: a key seen before answers what it answered first. */
  const answered = new Map<string, unknown>();
  const transfers = new Map<string, { amountMinor: number; reversedMinor: number; reshelfId: string }>();
  const calls: TestCall[] = [];
  let queue: SignedEvent[] = [];
  let deliverer: ((event: SignedEvent) => Promise<void>) | null = null;
  let flushing: Promise<void> = Promise.resolve();

  function once<T>(key: string, make: () => T): T {
    if (answered.has(key)) return answered.get(key) as T;
    const value = make();
    answered.set(key, value);
    return value;
  }

  function enqueue(event: SignedEvent) {
    queue.push(event);
    // Delivered after the request that caused it has been answered, as a real provider does.
    if (deliverer) setImmediate(() => void provider.flushEvents());
  }

  const provider: TestProvider = {
    kind: 'test',

    async createCheckout(input: CheckoutSessionInput): Promise<CheckoutSession> {
      const providerRef = `tp_${randomBytes(12).toString('hex')}`;
      return { providerRef, redirectUrl: pageUrl(input, providerRef) };
    },
    async resumeCheckout(providerRef, input) {
      // Its sessions stay open until paid, declined or expired by the shop: always the same page.
      return { providerRef, redirectUrl: pageUrl(input, providerRef) };
    },

    calls,

    signedEvent(providerRef, outcome, amountMinor) {
      return signEvent({
        id: `evt_${randomUUID()}`,
        type: EVENT_TYPES[outcome],
        data: { providerRef, amountMinor },
      });
    },

    onboard(accountId, outcome) {
      const known = accounts.get(accountId);
      if (!known) throw new Error(`No test account ${accountId}`);
      const next: ConnectedAccountStatus & { payoutsFail: boolean } =
        outcome === 'complete' || outcome === 'complete_payouts_fail'
          ? {
              accountId,
              state: 'active',
              detailsSubmitted: true,
              payoutsEnabled: true,
              requirementsDue: [],
              disabledReason: null,
              payoutsFail: outcome === 'complete_payouts_fail',
            }
          : outcome === 'needs_information'
            ? {
                accountId,
                state: 'needs_information',
                detailsSubmitted: true,
                payoutsEnabled: false,
                requirementsDue: [...TEST_REQUIREMENTS_DUE],
                disabledReason: 'requirements.past_due',
                payoutsFail: false,
              }
            : {
                accountId,
                state: 'rejected',
                detailsSubmitted: true,
                payoutsEnabled: false,
                requirementsDue: [],
                disabledReason: 'rejected.other',
                payoutsFail: false,
              };
      accounts.set(accountId, next);
      const { payoutsFail: _fail, ...account } = next;
      const event = signEvent({
        id: `evt_${randomUUID()}`,
        type: 'account.updated',
        created: created(),
        account: accountId,
        data: { account },
      });
      return { account, event };
    },

    hasAccount(accountId) {
      return accounts.has(accountId);
    },

    onboardingToken,

    verifyOnboardingToken(accountId, token) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
      if (!match) return false;
      const expires = Number(match[1]);
      if (expires < Date.now() / 1000) return false;
      return options.secrets.verify('onboarding-link', `${accountId}.${expires}`, match[2]!);
    },

    adoptAccount(account) {
      if (!accounts.has(account.accountId))
        accounts.set(account.accountId, { ...account, payoutsFail: false });
    },

    setDeliverer(deliver) {
      const previous = deliverer;
      deliverer = deliver;
      return previous;
    },

    flushEvents() {
      flushing = flushing.then(async () => {
        while (deliverer && queue.length > 0) {
          const event = queue.shift() as SignedEvent;
          await deliverer(event);
        }
      });
      return flushing;
    },

    takeEvents() {
      const taken = queue;
      queue = [];
      return taken;
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
      switch (event.type) {
        case 'account.updated':
          return {
            id: event.id,
            type: event.type,
            providerRef: event.account,
            accountId: event.account,
            createdAt: new Date(event.created),
            account: event.data.account,
            raw: event,
          };
        case 'payout.updated':
          return {
            id: event.id,
            type: event.type,
            providerRef: event.data.payout.payoutRef,
            accountId: event.account,
            createdAt: new Date(event.created),
            payout: event.data.payout,
            raw: event,
          };
        case 'transfer.updated':
          return {
            id: event.id,
            type: event.type,
            providerRef: event.data.transfer.transferRef,
            createdAt: new Date(event.created),
            transfer: event.data.transfer,
            raw: event,
          };
        default:
          return {
            id: event.id,
            type: event.type,
            providerRef: event.data.providerRef,
            amountMinor: event.data.amountMinor,
            raw: event,
          };
      }
    },

    async refund(input) {
      return once(`refund:${input.idempotencyKey}`, () => {
        // The refund reference keeps its first form (tr_…), which the ledger pages and tests know.
        const refundRef = `tr_${hex()}`;
        calls.push({ op: 'refund', ...input, refundRef });
        return { refundRef };
      });
    },

    async createConnectedAccount(input) {
      const accountId = `acct_test_${hex()}`;
      accounts.set(accountId, {
        accountId,
        state: 'pending',
        detailsSubmitted: false,
        payoutsEnabled: false,
        requirementsDue: [],
        disabledReason: null,
        payoutsFail: false,
      });
      calls.push({ op: 'account', userId: input.userId, accountId });
      return { accountId };
    },

    async createOnboardingLink(input) {
      const page = new URL(`/payments/test/onboarding/${input.accountId}`, new URL(input.siteOrigin).origin);
      page.searchParams.set(TEST_RETURN_PARAM, input.returnUrl);
      page.searchParams.set(ONBOARDING_LINK_PARAM, onboardingToken(input.accountId));
      return { url: page.href };
    },

    async retrieveAccount(accountId) {
      const account = accounts.get(accountId);
      if (!account) {
        // Made before this process started: the test provider keeps no records, so not set up yet.
        return {
          accountId,
          state: 'pending',
          detailsSubmitted: false,
          payoutsEnabled: false,
          requirementsDue: [],
          disabledReason: null,
        };
      }
      const { payoutsFail: _fail, ...status } = account;
      return status;
    },

    async createTransfer(input) {
      return once(`transfer:${input.idempotencyKey}`, () => {
        const transferRef = `tr_test_${hex()}`;
        transfers.set(transferRef, {
          amountMinor: input.amountMinor,
          reversedMinor: 0,
          reshelfId: input.reshelfId,
        });
        calls.push({
          op: 'transfer',
          amountMinor: input.amountMinor,
          destination: input.destinationAccountId,
          source: input.sourcePaymentRef,
          idempotencyKey: input.idempotencyKey,
          transferRef,
        });
        return { transferRef };
      });
    },

    async reverseTransfer(input) {
      return once(`reversal:${input.idempotencyKey}`, () => {
        const transfer = transfers.get(input.transferRef);
        if (transfer) {
          // money-ok: the fake provider keeps its own books, as Stripe does for a transfer
          if (transfer.reversedMinor + input.amountMinor > transfer.amountMinor) {
            throw new Error('The reversal is more than is left of the transfer');
          }
          // money-ok: the fake provider's own books
          transfer.reversedMinor += input.amountMinor;
        }
        const reversalRef = `trr_test_${hex()}`;
        calls.push({
          op: 'reversal',
          ...{
            transferRef: input.transferRef,
            amountMinor: input.amountMinor,
            idempotencyKey: input.idempotencyKey,
          },
          reversalRef,
        });
        if (transfer) {
          enqueue(
            signEvent({
              id: `evt_${randomUUID()}`,
              type: 'transfer.updated',
              created: created(),
              data: {
                transfer: {
                  transferRef: input.transferRef,
                  reshelfId: transfer.reshelfId,
                  amountMinor: transfer.amountMinor,
                  reversedMinor: transfer.reversedMinor,
                },
              },
            }),
          );
        }
        return { reversalRef };
      });
    },

    async createPayout(input) {
      return once(`payout:${input.idempotencyKey}`, () => {
        const payoutRef = `po_test_${hex()}`;
        calls.push({
          op: 'payout',
          accountId: input.accountId,
          amountMinor: input.amountMinor,
          idempotencyKey: input.idempotencyKey,
          payoutRef,
        });
        const arrivalDate = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
        const fails = accounts.get(input.accountId)?.payoutsFail === true;
        const payout: ProviderPayoutStatus = {
          payoutRef,
          accountId: input.accountId,
          reshelfId: input.reshelfId,
          status: fails ? 'failed' : 'paid',
          amountMinor: input.amountMinor,
          failureCode: fails ? 'account_closed' : null,
          failureMessage: fails ? 'The bank account has been closed.' : null,
          arrivalDate,
        };
        // It leaves now and settles afterwards: paid, or returned by the bank.
        enqueue(
          signEvent({
            id: `evt_${randomUUID()}`,
            type: 'payout.updated',
            created: created(),
            account: input.accountId,
            data: { payout },
          }),
        );
        return { payoutRef, status: 'in_transit' as const, arrivalDate };
      });
    },
  };
  return provider;
}
