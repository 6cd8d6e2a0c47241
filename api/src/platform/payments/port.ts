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

export type PaymentEventType =
  | 'payment.succeeded'
  | 'payment.failed'
  | 'payment.abandoned'
  /** Connect: a connected account's state changed (Stripe account.updated). */
  | 'account.updated'
  /** A transfer was made, updated or reversed (transfer.created / .updated / .reversed). */
  | 'transfer.updated'
  /** A connected account's payout moved (payout.created / .updated / .paid / .failed / .canceled). */
  | 'payout.updated'
  /** A refund of a charge was made (charge.refunded): the ledger already has it; kept for the log. */
  | 'charge.refunded'
  | 'ignored';

/** The seller's account at the provider, as Reshelf keeps it (connected_accounts). */
export type ConnectedAccountState = 'pending' | 'needs_information' | 'active' | 'restricted' | 'rejected';

export interface ConnectedAccountStatus {
  accountId: string;
  state: ConnectedAccountState;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
  /** What the provider says is due (its requirement names). */
  requirementsDue: string[];
  disabledReason: string | null;
}

export type ProviderPayoutState = 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';

export interface ProviderPayoutStatus {
  payoutRef: string;
  accountId: string;
  /** Reshelf's provider_payouts id (metadata), so an event arriving first still finds its row. */
  reshelfId: string | null;
  status: ProviderPayoutState;
  amountMinor: number;
  failureCode: string | null;
  failureMessage: string | null;
  arrivalDate: string | null;
}

export interface TransferStatus {
  transferRef: string;
  /** Reshelf's transfers id (metadata). */
  reshelfId: string | null;
  amountMinor: number;
  reversedMinor: number;
}

export interface PaymentEvent {
  /** The provider's own event id: a delivery seen before changes nothing. */
  id: string;
  type: PaymentEventType;
  providerRef: string;
  amountMinor?: number;
  /** When the provider made the event: an older one delivered after a newer changes nothing. */
  createdAt?: Date;
  /** The connected account the event came from (Connect events), if any. */
  accountId?: string;
  account?: ConnectedAccountStatus;
  payout?: ProviderPayoutStatus;
  transfer?: TransferStatus;
  /** The raw event, kept for the payment log. */
  raw: unknown;
}

export interface CreateConnectedAccountInput {
  userId: string;
  email: string;
  /** A charity is a non-profit company; everyone else an individual. */
  businessType: 'individual' | 'non_profit';
}

export interface OnboardingLinkInput {
  accountId: string;
  /** Where the provider sends the seller when they finish (or leave) the hosted flow. */
  returnUrl: string;
  /** Where it sends them when the link has expired (a new link is made there). */
  refreshUrl: string;
  /** The shop's own origin, where the test provider serves its onboarding page. */
  siteOrigin: string;
}

export interface TransferInput {
  /** Exactly the seller's net, in pence. */
  amountMinor: number;
  destinationAccountId: string;
  /** The buyer's payment (its checkout session): the transfer is made from its charge. */
  sourcePaymentRef: string;
  idempotencyKey: string;
  /** Reshelf's transfers id and the order, for the provider's records. */
  reshelfId: string;
  orderReference: string;
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
  /**
   * Gives money back; never more than was paid (the caller checks the ledger first). The
   * idempotency key makes a retried request give the same refund, never a second one.
   */
  refund(input: {
    providerRef: string;
    amountMinor: number;
    reason: string;
    idempotencyKey: string;
  }): Promise<{ refundRef: string }>;

  // Connect (decision 0046): sellers are paid through the provider -----------------

  /** A new connected account for a seller (Stripe: an Express account, payouts on demand). */
  createConnectedAccount(input: CreateConnectedAccountInput): Promise<{ accountId: string }>;
  /** The hosted onboarding page, for a short while (Stripe: an account link). */
  createOnboardingLink(input: OnboardingLinkInput): Promise<{ url: string }>;
  /** The account's state now. */
  retrieveAccount(accountId: string): Promise<ConnectedAccountStatus>;
  /** Moves the seller's net from the platform balance to their account, from the buyer's charge. */
  createTransfer(input: TransferInput): Promise<{ transferRef: string }>;
  /** Takes (part of) a transfer back to the platform balance (a refund after release). */
  reverseTransfer(input: {
    transferRef: string;
    amountMinor: number;
    idempotencyKey: string;
    reason: string;
  }): Promise<{ reversalRef: string }>;
  /** Pays the seller's account balance out to their bank. */
  createPayout(input: {
    accountId: string;
    amountMinor: number;
    idempotencyKey: string;
    reshelfId: string;
  }): Promise<{ payoutRef: string; status: ProviderPayoutState; arrivalDate: string | null }>;
}
