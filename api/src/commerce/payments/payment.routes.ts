/**
 * HTTP routes of the payment port, outside tRPC:
 *   POST /api/webhooks/payments/:provider   the provider's signed webhook (raw body)
 *   GET  /payments/test/:ref                the test provider's hosted-style payment page
 *   POST /payments/test/:ref/:choice        pay or decline: the provider then posts its signed
 *                                           webhook and sends the buyer back; or cancel: back
 *                                           to the shop with the session still open, as
 *                                           Stripe's back link does (they may finish paying).
 *                                           Back is the site, or the app's own origin when
 *                                           the page's `?return=` names it (decision 0029)
 *   GET  /payments/test/onboarding/:account  the test provider's hosted-style onboarding page
 *                                           (Connect), for the account's owner only:
 *                                           their session, or the link they were given
 *                                           (`?link=`, as a Stripe account link: per account,
 *                                           an hour)
 *   POST /payments/test/onboarding/:account/:outcome   complete, complete with a bank that
 *                                           refuses payouts, needs more information, or
 *                                           rejected: the provider posts its signed
 *                                           account.updated webhook and sends the seller back
 *                                           to a path on the site (safeNextPath). Only with
 *                                           the page's link (a plain form cannot send the
 *                                           CSRF header a cookie session needs)
 */
import { formatPence, plural, safeNextPath } from '@reshelf/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { ERRORS } from '../../errors.ts';
import { authenticateWith, requireAccess } from '../../http/access.ts';
import { isAppOrigin } from '../../http/cors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import {
  type ConnectedAccountStatus,
  type PaymentProvider,
  WebhookEventError,
  WebhookSignatureError,
} from '../../platform/payments/port.ts';
import {
  ONBOARDING_LINK_PARAM,
  ONBOARDING_OUTCOMES,
  type OnboardingOutcome,
  TEST_RETURN_PARAM,
  type TestOutcome,
  type TestProvider,
} from '../../platform/payments/test-provider.ts';
import { applyPaymentEvent, describePayment, paymentOrders } from '../checkout/checkout.service.ts';
import { applyConnectEvent, isConnectEvent } from '../money/payouts.ts';

const PAYOUTS_PAGE = '/account/payouts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The page's buttons: the outcome each one reports in a webhook, or none (cancel). */
const CHOICES = {
  success: { label: 'Pay now', outcome: 'success' },
  decline: { label: 'Simulate a declined card', outcome: 'decline' },
  cancel: { label: 'Cancel and return to Reshelf', outcome: null },
} as const satisfies Record<string, { label: string; outcome: TestOutcome | null }>;
type Choice = keyof typeof CHOICES;
const CHOICE_NAMES = Object.keys(CHOICES) as [Choice, ...Choice[]];
/** Only the page's own buttons: an inherited name such as __proto__ is no choice at all. */
const choiceSchema = z.enum(
  CHOICE_NAMES,
  `Choose ${CHOICE_NAMES.slice(0, -1).join(', ')} or ${CHOICE_NAMES.at(-1)}`,
);

/**
 * Where the page sends the buyer back: the Capacitor app's origin when the page's address names
 * one (a checkout started in the app), else the site (a relative address). Nothing else is
 * honoured, so the page can never send anyone to a site of someone's choosing.
 */
function returnOrigin(query: unknown): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[TEST_RETURN_PARAM];
  return isAppOrigin(typeof value === 'string' ? value : undefined) ? (value as string) : undefined;
}

function paymentPage(input: {
  ref: string;
  amount: string;
  reference: string;
  title: string;
  status: string;
  returnTo: string | undefined;
}): string {
  const done = input.status !== 'pending';
  const query = input.returnTo ? `?${TEST_RETURN_PARAM}=${encodeURIComponent(input.returnTo)}` : '';
  const buttons = (Object.keys(CHOICES) as Choice[])
    .map(
      (choice) =>
        `<form method="post" action="/payments/test/${escapeHtml(input.ref)}/${choice}${escapeHtml(query)}"><button class="${choice}" type="submit"${done ? ' disabled' : ''}>${escapeHtml(CHOICES[choice].label)}</button></form>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment · Reshelf</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#f4f1ec;color:#211c17;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.08);padding:32px;max-width:420px;width:calc(100% - 32px)}
.badge{display:inline-block;background:#fde68a;color:#78350f;border-radius:999px;padding:4px 10px;font-size:12px;font-weight:700;letter-spacing:.04em}
h1{font-size:22px;margin:16px 0 4px}.amount{font-size:36px;font-weight:700;margin:16px 0}
p{color:#6b6258;margin:4px 0}form{margin:0}button{width:100%;margin-top:12px;padding:14px;border-radius:10px;border:1px solid #d6cfc4;background:#fff;font-size:16px;font-weight:600;cursor:pointer}
button.success{background:#166534;border-color:#166534;color:#fff}button.decline{color:#991b1b}button:disabled{opacity:.5;cursor:not-allowed}
</style></head><body><main>
<span class="badge">TEST MODE · NO REAL MONEY</span>
<h1>Reshelf test payments</h1>
<p>${escapeHtml(input.title)}</p><p>${plural(input.reference.split(',').length, 'Order', 'Orders')} ${escapeHtml(input.reference)}</p>
<div class="amount" data-testid="amount">${escapeHtml(input.amount)}</div>
${done ? `<p data-testid="status">This payment is ${escapeHtml(input.status)}.</p>` : ''}
${buttons}
</main></body></html>`;
}

export async function registerPaymentRoutes(
  app: FastifyInstance,
  deps: {
    db: Database;
    payments: PaymentProvider;
    mailer: Mailer;
    /** The site's origin for links in emails (config.siteOrigin), never this request's. */
    origin: string;
  },
): Promise<void> {
  await app.register(async (scope) => {
    // Signatures are computed over the exact bytes received.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );

    // Public: the provider's signature over the body is the authority.
    scope.post<{ Params: { provider: string } }>(
      '/api/webhooks/payments/:provider',
      requireAccess('public'),
      async (request, reply) => {
        if (request.params.provider !== deps.payments.kind) {
          return reply
            .code(404)
            .send({ error: ERRORS.NOT_FOUND.title, message: `No ${request.params.provider} payments here` });
        }
        let event: ReturnType<PaymentProvider['parseWebhook']>;
        try {
          event = deps.payments.parseWebhook(String(request.body ?? ''), request.headers);
        } catch (error) {
          if (error instanceof WebhookSignatureError || error instanceof WebhookEventError)
            return reply.code(400).send({ error: ERRORS.BAD_INPUT.title, message: error.message });
          return reply
            .code(400)
            .send({ error: ERRORS.BAD_INPUT.title, message: 'The webhook body could not be read' });
        }
        const log = (message: string, error?: unknown) => request.log.error({ err: error }, message);
        const outcome = isConnectEvent(event)
          ? await applyConnectEvent({ ...deps, log }, deps.payments.kind, event)
          : await applyPaymentEvent({ ...deps, log }, deps.payments.kind, event);
        request.log.info({ eventId: event.id, type: event.type, outcome }, 'payment webhook applied');
        return reply.send({ received: true, outcome });
      },
    );
  });

  if (deps.payments.kind !== 'test') return;
  const provider = deps.payments as TestProvider;

  // The provider's own events (payouts settling, transfers reversed) reach the shop the way its
  // checkout webhooks do: posted, signed, to the webhook address.
  const post = async (signed: { body: string; headers: Record<string, string> }) => {
    const delivered = await app.inject({
      method: 'POST',
      url: '/api/webhooks/payments/test',
      headers: { 'content-type': 'application/json', ...signed.headers },
      payload: signed.body,
    });
    if (delivered.statusCode !== 200) app.log.error({ body: delivered.body }, 'test webhook delivery failed');
  };
  provider.setDeliverer(post);
  app.addHook('onClose', async () => provider.setDeliverer(null));

  /**
   * Where the onboarding page sends the seller back: a path on the site (the one rule for `next`,
   * safeNextPath: normalised, then checked), or the payouts page. The link made for the seller
   * names the site's own address; only its path is kept.
   */
  const onboardingReturn = (query: unknown): string => {
    const value = (query as Record<string, unknown> | undefined)?.[TEST_RETURN_PARAM];
    if (typeof value !== 'string') return PAYOUTS_PAGE;
    let path = value;
    if (!value.startsWith('/')) {
      try {
        const url = new URL(value);
        if (url.origin !== new URL(deps.origin).origin) return PAYOUTS_PAGE;
        path = `${url.pathname}${url.search}`;
      } catch {
        return PAYOUTS_PAGE;
      }
    }
    return safeNextPath(path) ?? PAYOUTS_PAGE;
  };

  const linkOf = (query: unknown): string | null => {
    const value = (query as Record<string, unknown> | undefined)?.[ONBOARDING_LINK_PARAM];
    return typeof value === 'string' ? value : null;
  };

  /** The account's owner is asking: the link they were given, or (the page only) their session. */
  const ownerAsks = async (
    request: FastifyRequest<{ Params: { account: string } }>,
    reply: FastifyReply,
    options: { session: boolean },
  ): Promise<boolean> => {
    const account = request.params.account;
    const link = linkOf(request.query);
    if (link !== null) return provider.verifyOnboardingToken(account, link);
    if (!options.session) return false;
    const auth = await authenticateWith(
      () => request.server.authenticate(request, reply, { cookies: true }),
      request.log,
    );
    if (!auth.claims) return false;
    const owned = await deps.db
      .selectFrom('connected_accounts')
      .select('user_id')
      .where('provider', '=', 'test')
      .where('provider_account_id', '=', account)
      .where('user_id', '=', auth.claims.userId)
      .executeTakeFirst();
    return Boolean(owned);
  };
  const NOT_YOURS = 'This onboarding link is not valid or has expired. Start again from your payouts page.';

  const ONBOARDING_CHOICES: Record<OnboardingOutcome, string> = {
    complete: 'Complete set-up',
    complete_payouts_fail: 'Complete, with a bank that refuses payouts',
    needs_information: 'Leave information missing',
    rejected: 'Simulate a rejected account',
  };
  const outcomeSchema = z.enum(ONBOARDING_OUTCOMES, `Choose ${ONBOARDING_OUTCOMES.join(', ')}`);

  /**
   * The provider made this account: in this process, or (the test provider keeps its records in
   * memory) before a restart, as the database still knows it; then the provider takes it back.
   */
  const knownAccount = async (accountId: string): Promise<boolean> => {
    if (provider.hasAccount(accountId)) return true;
    const row = await deps.db
      .selectFrom('connected_accounts')
      .select([
        'provider_account_id',
        'state',
        'details_submitted',
        'payouts_enabled',
        'requirements_due',
        'disabled_reason',
      ])
      .where('provider', '=', 'test')
      .where('provider_account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) return false;
    provider.adoptAccount({
      accountId: row.provider_account_id,
      state: row.state as ConnectedAccountStatus['state'],
      detailsSubmitted: row.details_submitted,
      payoutsEnabled: row.payouts_enabled,
      requirementsDue: row.requirements_due,
      disabledReason: row.disabled_reason,
    });
    return true;
  };

  app.get<{ Params: { account: string } }>(
    '/payments/test/onboarding/:account',
    requireAccess('public'),
    async (request, reply) => {
      // Not the owner, or no such account: the same answer, so an account id tells nobody anything.
      if (
        !(await ownerAsks(request, reply, { session: true })) ||
        !(await knownAccount(request.params.account))
      ) {
        return reply.code(404).type('text/html').send(`<p>${NOT_YOURS}</p>`);
      }
      const back = onboardingReturn(request.query);
      const query = `?${new URLSearchParams({
        [TEST_RETURN_PARAM]: back,
        [ONBOARDING_LINK_PARAM]: provider.onboardingToken(request.params.account),
      })}`;
      const buttons = ONBOARDING_OUTCOMES.map(
        (outcome) =>
          `<form method="post" action="/payments/test/onboarding/${escapeHtml(request.params.account)}/${outcome}${escapeHtml(query)}"><button class="${outcome}" type="submit">${escapeHtml(ONBOARDING_CHOICES[outcome])}</button></form>`,
      ).join('');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(`<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Set up payouts (test) · Reshelf</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#f4f1ec;color:#211c17;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.08);padding:32px;max-width:440px;width:calc(100% - 32px)}
.badge{display:inline-block;background:#fde68a;color:#78350f;border-radius:999px;padding:4px 10px;font-size:12px;font-weight:700;letter-spacing:.04em}
h1{font-size:22px;margin:16px 0 4px}p{color:#6b6258;margin:4px 0}form{margin:0}
button{width:100%;margin-top:12px;padding:14px;border-radius:10px;border:1px solid #d6cfc4;background:#fff;font-size:16px;font-weight:600;cursor:pointer}
button.complete{background:#166534;border-color:#166534;color:#fff}button.rejected{color:#991b1b}
</style></head><body><main>
<span class="badge">TEST MODE · NO REAL BANK DETAILS</span>
<h1>Set up payouts</h1>
<p>In production our payment provider asks for your identity and bank account here; Reshelf never sees your bank details.</p>
<p>Choose how the test set-up ends:</p>
${buttons}
</main></body></html>`);
    },
  );

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.post<{ Params: { account: string; outcome: string } }>(
      '/payments/test/onboarding/:account/:outcome',
      requireAccess('public'),
      async (request, reply) => {
        const outcome = outcomeSchema.safeParse(request.params.outcome);
        if (!outcome.success) {
          return reply
            .code(400)
            .send({ error: ERRORS.BAD_INPUT.title, message: `outcome: ${outcome.error.issues[0]?.message}` });
        }
        if (
          !(await ownerAsks(request, reply, { session: false })) ||
          !(await knownAccount(request.params.account))
        ) {
          return reply.code(404).send({ error: ERRORS.NOT_FOUND.title, message: NOT_YOURS });
        }
        const { event } = provider.onboard(request.params.account, outcome.data);
        await post(event);
        const back = onboardingReturn(request.query);
        return reply.redirect(back, 303);
      },
    );
  });

  /** The provider session (a checkout payment, decision 0043): its total and every book it pays for. */
  const lookup = async (ref: string) => {
    const payment = await deps.db
      .selectFrom('checkout_payments')
      .select(['id', 'provider_ref', 'amount_minor', 'status'])
      .where('provider', '=', 'test')
      .where('provider_ref', '=', ref)
      .executeTakeFirst();
    if (!payment?.provider_ref) return undefined;
    const orders = await paymentOrders(deps.db, payment.id);
    const first = orders[0];
    if (!first) return undefined;
    return {
      provider_ref: payment.provider_ref,
      amount_minor: payment.amount_minor,
      status: payment.status,
      orderId: first.id,
      // A basket's payment (several orders): the success page shows them all.
      paymentQuery: orders.length > 1 ? `&payment=${payment.id}` : '',
      ...describePayment(orders),
    };
  };

  app.get<{ Params: { ref: string } }>(
    '/payments/test/:ref',
    requireAccess('public'),
    async (request, reply) => {
      const payment = await lookup(request.params.ref);
      if (!payment) return reply.code(404).type('text/html').send('<p>This payment link is not valid.</p>');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          paymentPage({
            ref: payment.provider_ref,
            amount: formatPence(payment.amount_minor),
            reference: payment.reference,
            title: payment.title,
            status: payment.status,
            returnTo: returnOrigin(request.query),
          }),
        );
    },
  );

  // The page's forms post url-encoded (empty) bodies: accept and ignore any body here.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, undefined),
    );
    scope.post<{ Params: { ref: string; choice: string } }>(
      '/payments/test/:ref/:choice',
      requireAccess('public'),
      async (request, reply) => {
        const choice = choiceSchema.safeParse(request.params.choice);
        if (!choice.success) {
          return reply
            .code(400)
            .send({ error: ERRORS.BAD_INPUT.title, message: `choice: ${choice.error.issues[0]?.message}` });
        }
        const { outcome } = CHOICES[choice.data];
        const payment = await lookup(request.params.ref);
        if (!payment)
          return reply
            .code(404)
            .send({ error: ERRORS.NOT_FOUND.title, message: 'This payment link is not valid.' });
        if (outcome && payment.status === 'pending') {
          // The provider tells the shop through its signed webhook, as a real provider would.
          const signed = provider.signedEvent(payment.provider_ref, outcome, payment.amount_minor);
          const delivered = await app.inject({
            method: 'POST',
            url: '/api/webhooks/payments/test',
            headers: { 'content-type': 'application/json', ...signed.headers },
            payload: signed.body,
          });
          if (delivered.statusCode !== 200)
            request.log.error({ body: delivered.body }, 'test webhook delivery failed');
        }
        const target = outcome === 'success' ? 'success' : 'cancel';
        const back = returnOrigin(request.query) ?? '';
        return reply.redirect(
          `${back}/checkout/${target}?order=${payment.orderId}${payment.paymentQuery}`,
          303,
        );
      },
    );
  });
}
