/**
 * Money out (decision 0046): sellers and charities are paid through the payment
 * provider. A released sale (payouts.status = 'released', orders.service / the release job)
 * becomes a transfer of exactly the seller's net to their connected account, made from the
 * buyer's charge with an idempotency key; the account's balance is then paid out to their bank.
 *
 * `payOut` does both, for every seller or one. It runs as the `payouts.send` job and straight
 * after a release (the buyer's "Everything is OK"), and it is safe to run twice at once: rows are
 * written first (a per-seller advisory lock, in a transaction), the provider is called after
 * commit with the row's idempotency key, so a crash or a second runner makes the same transfer
 * or payout, never another. Released earnings wait while the seller has no account, it is not
 * active, or their payouts are held; the seller is told why once for each reason
 * (payout_wait_notices), in the app and by email.
 *
 * Webhooks (account, transfer and payout events, from connected accounts too) are verified by the
 * provider, de-duplicated by event id (payment_events) and applied once; an event older than the
 * last one applied to the same account or payout changes nothing, so out-of-order delivery is
 * harmless. A failed payout's money is back in the seller's balance (the ledger's payout_failed),
 * the seller is told the reason and what to do, and no new payout is tried until their account
 * changes or staff retry it (`payOut(..., { retryFailed: true })`).
 *
 * A refund after release takes the seller's part back from the transfer (`reverseForRefund`,
 * called by the refund command in the refund's transaction); a transfer not yet made is made for
 * what is then left, and a part refunded after it was made is reversed when it is.
 */
import {
  formatPence,
  type PayoutAccount,
  type PayoutDetail,
  type PayoutsList,
  type PayoutWaitReason,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/templates.ts';
import { type NotificationInput, notify } from '../../platform/notifications/notify.ts';
import type { ConnectedAccountState, PaymentEvent, PaymentProvider } from '../../platform/payments/port.ts';
import { owedOf, sellerEarnings, transferLeft } from './amounts.ts';

type Trx = Transaction<DB>;

export interface PayoutDeps {
  db: Database;
  payments: PaymentProvider;
  mailer: Mailer;
  /** The site's origin, for links in emails and the provider's return addresses. */
  origin: string;
  log?: (message: string, error?: unknown) => void;
}

const PAYOUTS_PAGE = '/account/payouts';

/** Requirement names the provider uses, in words a seller understands. */
const REQUIREMENT_WORDS: [RegExp, string][] = [
  [/external_account/, 'Your bank account for payouts'],
  [/verification\.document/, 'A photo of your ID (passport or driving licence)'],
  [/verification\.additional_document/, 'A document showing your address'],
  [/\.dob\./, 'Your date of birth'],
  [/\.address\./, 'Your home address'],
  [/\.(first|last)_name/, 'Your name'],
  [/\.phone/, 'Your phone number'],
  [/\.email/, 'Your email address'],
  [/business_profile/, 'What you sell (your business profile)'],
  [/tos_acceptance/, 'Accepting the payment provider’s terms'],
  [/company\./, 'Your organisation’s registered details'],
  [/representative|owners|directors|executives/, 'The people responsible for your organisation'],
];

/** What is due, in words, one line each (the provider's own name when we have no words for it). */
export function describeRequirements(due: readonly string[]): string[] {
  const lines = due.map((name) => REQUIREMENT_WORDS.find(([pattern]) => pattern.test(name))?.[1] ?? name);
  return [...new Set(lines)];
}

const WAIT_WORDS: Record<PayoutWaitReason, { title: string; body: string }> = {
  no_account: {
    title: 'Set up payouts to get paid',
    body: 'You have earnings waiting. Set up payouts with our payment provider (it takes a few minutes) and we will send them to your bank.',
  },
  account_not_active: {
    title: 'Your payouts are waiting for your account',
    body: 'You have earnings waiting, but your payout account is not active yet. Finish setting it up, or give the payment provider what it asks for, and we will send them.',
  },
  held: {
    title: 'Your payouts are on hold',
    body: 'You have earnings waiting, but your payouts are on hold. See your payouts page for why and what to do.',
  },
};

/** Tells a member, in the app and by email, on `trx`. */
async function tell(
  trx: Trx,
  deps: Pick<PayoutDeps, 'mailer' | 'origin'>,
  notice: NotificationInput & { template: string },
): Promise<void> {
  const { template, ...input } = notice;
  await notify(trx as unknown as Database, input);
  const person = await trx
    .selectFrom('auth.users')
    .select('email')
    .where('id', '=', notice.userId)
    .executeTakeFirst();
  if (!person?.email) return;
  const action = { label: 'View your payouts', url: `${deps.origin}${PAYOUTS_PAGE}` };
  await deps.mailer.send(
    {
      to: person.email,
      subject: notice.title,
      text: `${notice.body}\n\n${action.label}: ${action.url}\n`,
      html: layout([notice.body], action),
      template,
      userId: notice.userId,
    },
    { trx: trx as unknown as Database },
  );
}

// Earnings held at payment --------------------------------------------------------------------------

/**
 * A paid order's earnings for its seller (the `payouts` row): the books less the bundle discount,
 * and the postage, held until the order completes. Written once, here: a second payment event for
 * the same order changes nothing.
 */
export async function holdEarnings(
  trx: Trx,
  order: {
    id: string;
    seller_id: string;
    item_price_minor: number;
    bundle_discount_minor: number;
    postage_minor: number;
  },
): Promise<void> {
  await trx
    .insertInto('payouts')
    .values({
      seller_id: order.seller_id,
      order_id: order.id,
      amount_minor: sellerEarnings({
        itemsMinor: order.item_price_minor,
        bundleDiscountMinor: order.bundle_discount_minor,
        postageMinor: order.postage_minor,
      }),
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .execute();
}

/**
 * A completed order's held earnings become the seller's: released now, or, while a charity sale's
 * return window is still open (`holdUntil`), kept held until then (`releaseHeldEarnings` then).
 */
export async function releaseEarnings(
  trx: Trx,
  orderId: string,
  holdUntil: Date | null,
  now = new Date(),
): Promise<void> {
  const update = trx.updateTable('payouts').where('order_id', '=', orderId).where('status', '=', 'held');
  if (holdUntil && holdUntil > now) {
    await update.set({ release_after: holdUntil }).execute();
    return;
  }
  await update.set({ status: 'released', released_at: now }).execute();
}

/**
 * Earnings held through a return window are released once it has closed, for completed orders
 * with no return still open (requested or accepted: the book may be on its way back). One
 * statement, so a return being refunded at the same moment either cancels the payout first or
 * finds it released. Answers the orders released.
 */
export async function releaseHeldEarnings(trx: Trx, now = new Date()): Promise<string[]> {
  const released = await trx
    .updateTable('payouts as p')
    .set({ status: 'released', released_at: now })
    .where('p.status', '=', 'held')
    .where('p.release_after', '<=', now)
    .where(({ exists, not, selectFrom }) =>
      exists(
        selectFrom('orders as o')
          .select('o.id')
          .whereRef('o.id', '=', 'p.order_id')
          .where('o.status', '=', 'completed'),
      ).and(
        not(
          exists(
            selectFrom('return_requests as r')
              .select('r.id')
              .whereRef('r.order_id', '=', 'p.order_id')
              .where('r.status', 'in', ['requested', 'accepted']),
          ),
        ),
      ),
    )
    .returning('p.order_id')
    .execute();
  return released.map((row) => row.order_id);
}

// The seller's account ----------------------------------------------------------------------------

async function openHolds(db: Database | Trx, sellerId: string) {
  return db
    .selectFrom('payout_holds')
    .select(['kind', 'reason', 'created_at'])
    .where('seller_id', '=', sellerId)
    .where('released_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

/** Released earnings not yet in a transfer (what waits for the account). */
async function waitingMinor(db: Database | Trx, sellerId: string): Promise<number> {
  const row = await db
    .selectFrom('payouts as p')
    .leftJoin('transfers as t', 't.payout_id', 'p.id')
    .select(sql<number>`coalesce(sum(p.amount_minor - p.reversed_minor), 0)::int`.as('total'))
    .where('p.seller_id', '=', sellerId)
    .where('p.status', '=', 'released')
    .where('t.id', 'is', null)
    .executeTakeFirstOrThrow();
  return row.total;
}

/** The seller's balance at the provider: transfers made less reversals and payouts not failed. */
export async function providerBalance(db: Database | Trx, sellerId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(
      sql<number>`coalesce(sum(case kind when 'payout' then -amount_minor when 'payout_failed' then -amount_minor else amount_minor end), 0)::int`.as(
        'total',
      ),
    )
    .where('seller_id', '=', sellerId)
    .where('kind', 'in', ['transfer', 'transfer_reversal', 'payout', 'payout_failed'])
    .executeTakeFirstOrThrow();
  return row.total;
}

function waitReason(
  account: { state: string } | undefined,
  holds: readonly unknown[],
): PayoutWaitReason | null {
  if (!account) return 'no_account';
  if (account.state !== 'active') return 'account_not_active';
  if (holds.length > 0) return 'held';
  return null;
}

/** Why each of these sellers' released earnings would wait now (no account, not active, on hold), or none. */
export async function sellerWaitReasons(
  db: Database | Trx,
  sellerIds: readonly string[],
): Promise<Map<string, PayoutWaitReason>> {
  const ids = [...new Set(sellerIds)];
  if (ids.length === 0) return new Map();
  const [accounts, holds] = await Promise.all([
    db.selectFrom('connected_accounts').select(['user_id', 'state']).where('user_id', 'in', ids).execute(),
    db
      .selectFrom('payout_holds')
      .select('seller_id')
      .where('seller_id', 'in', ids)
      .where('released_at', 'is', null)
      .execute(),
  ]);
  const reasons = new Map<string, PayoutWaitReason>();
  for (const id of ids) {
    const reason = waitReason(
      accounts.find((account) => account.user_id === id),
      holds.filter((hold) => hold.seller_id === id),
    );
    if (reason) reasons.set(id, reason);
  }
  return reasons;
}

/** `commerce.payouts.member.account`: the seller's payout account and whether (and why) earnings wait. */
export async function payoutAccount(db: Database, sellerId: string): Promise<PayoutAccount> {
  const [account, holds, waiting, balance] = await Promise.all([
    db.selectFrom('connected_accounts').selectAll().where('user_id', '=', sellerId).executeTakeFirst(),
    openHolds(db, sellerId),
    waitingMinor(db, sellerId),
    providerBalance(db, sellerId),
  ]);
  const reason = waitReason(account, holds);
  return {
    state: (account?.state ?? 'not_started') as PayoutAccount['state'],
    due: describeRequirements(account?.requirements_due ?? []),
    disabledReason: account?.disabled_reason ?? null,
    holds: holds.map((hold) => ({
      kind: hold.kind as 'staff' | 'reporting',
      reason: hold.reason,
      since: hold.created_at.toISOString(),
    })),
    waitingMinor: waiting,
    waitingReason: waiting > 0 ? reason : null,
    balanceMinor: balance,
    owedMinor: owedOf(balance),
    updatedAt: account ? account.updated_at.toISOString() : null,
  };
}

/**
 * `commerce.payouts.member.startOnboarding`: the seller's account at the provider (made the first time)
 * and a fresh link to its hosted onboarding, which sends them back to /account/payouts.
 */
export async function startOnboarding(
  deps: Pick<PayoutDeps, 'db' | 'payments' | 'origin'>,
  seller: { id: string; email: string },
): Promise<{ url: string }> {
  let account = await deps.db
    .selectFrom('connected_accounts')
    .select(['provider_account_id', 'state'])
    .where('user_id', '=', seller.id)
    .executeTakeFirst();
  if (account?.state === 'rejected') {
    throw new AppError(
      'PRECONDITION_FAILED',
      'Our payment provider could not accept your payout account. Contact us and we will help you get paid.',
    );
  }
  if (!account) {
    const charity = await deps.db
      .selectFrom('charity_members')
      .select('charity_id')
      .where('user_id', '=', seller.id)
      .executeTakeFirst();
    const { accountId } = await deps.payments.createConnectedAccount({
      userId: seller.id,
      email: seller.email,
      businessType: charity ? 'non_profit' : 'individual',
    });
    // A second tab racing this one keeps the first account (the provider's is then unused).
    await deps.db
      .insertInto('connected_accounts')
      .values({ user_id: seller.id, provider: deps.payments.kind, provider_account_id: accountId })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    account = await deps.db
      .selectFrom('connected_accounts')
      .select(['provider_account_id', 'state'])
      .where('user_id', '=', seller.id)
      .executeTakeFirstOrThrow();
  }
  const page = `${deps.origin}${PAYOUTS_PAGE}`;
  return deps.payments.createOnboardingLink({
    accountId: account.provider_account_id,
    returnUrl: `${page}?onboarding=return`,
    refreshUrl: `${page}?onboarding=refresh`,
    siteOrigin: deps.origin,
  });
}

// Seller's payouts ------------------------------------------------------------------------------

const WHAT_TO_DO: Record<string, string> = {
  account_closed:
    'Your bank account is closed. Add a new bank account in your payout set-up; we will send the money again.',
  no_account:
    'Your bank could not find the account. Check your bank details in your payout set-up; we will send the money again.',
  invalid_account_number:
    'The account number is not valid. Check your bank details in your payout set-up; we will send the money again.',
  account_frozen:
    'Your bank account is frozen. Speak to your bank, or add another account in your payout set-up.',
};
const WHAT_TO_DO_DEFAULT =
  'The money is back in your Reshelf balance. Check your bank details in your payout set-up; we will send it again, or contact us.';

function whatToDo(status: string, code: string | null): string | null {
  if (status !== 'failed') return null;
  return (code && WHAT_TO_DO[code]) || WHAT_TO_DO_DEFAULT;
}

function summary(row: {
  id: string;
  amount_minor: number;
  status: string;
  created_at: Date;
  arrival_date: Date | string | null;
  paid_at: Date | null;
  failure_message: string | null;
  failure_code: string | null;
  order_count: number;
}) {
  return {
    id: row.id,
    amountMinor: row.amount_minor,
    status: row.status as PayoutDetail['status'],
    createdAt: row.created_at.toISOString(),
    arrivalDate:
      row.arrival_date instanceof Date
        ? row.arrival_date.toISOString().slice(0, 10)
        : (row.arrival_date ?? null),
    paidAt: row.paid_at ? row.paid_at.toISOString() : null,
    failureMessage: row.failure_message,
    whatToDo: whatToDo(row.status, row.failure_code),
    orderCount: row.order_count,
  };
}

function payoutRows(db: Database) {
  return db
    .selectFrom('provider_payouts as pp')
    .select([
      'pp.id',
      'pp.seller_id',
      'pp.amount_minor',
      'pp.status',
      'pp.created_at',
      'pp.arrival_date',
      'pp.paid_at',
      'pp.failure_message',
      'pp.failure_code',
      sql<number>`(select count(*) from public.provider_payout_transfers x where x.provider_payout_id = pp.id)::int`.as(
        'order_count',
      ),
    ]);
}

/** `commerce.payouts.member.list`: the seller's payouts, newest first, and transfers not yet paid out. */
export async function listSellerPayouts(db: Database, sellerId: string): Promise<PayoutsList> {
  const [payouts, transfers] = await Promise.all([
    payoutRows(db).where('pp.seller_id', '=', sellerId).orderBy('pp.created_at', 'desc').limit(200).execute(),
    db
      .selectFrom('transfers as t')
      .innerJoin('orders as o', 'o.id', 't.order_id')
      .select([
        't.id',
        't.order_id',
        'o.reference',
        't.amount_minor',
        't.reversed_minor',
        't.status',
        't.failure_reason',
        't.created_at',
      ])
      .where('t.seller_id', '=', sellerId)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('provider_payout_transfers as x')
              .innerJoin('provider_payouts as pp', 'pp.id', 'x.provider_payout_id')
              .select('x.transfer_id')
              .whereRef('x.transfer_id', '=', 't.id')
              .where('pp.status', 'not in', ['failed', 'canceled']),
          ),
        ),
      )
      .orderBy('t.created_at', 'desc')
      .limit(200)
      .execute(),
  ]);
  return {
    payouts: payouts.map(summary),
    transfers: transfers.map((t) => ({
      id: t.id,
      orderId: t.order_id,
      reference: t.reference,
      amountMinor: t.amount_minor,
      reversedMinor: t.reversed_minor,
      netMinor: transferLeft(t),
      status: t.status as 'pending' | 'paid' | 'failed' | 'reversed',
      failureReason: t.failure_reason,
      createdAt: t.created_at.toISOString(),
    })),
  };
}

/** `commerce.payouts.member.get`: one payout with its orders, fees, refunds and reversals. */
export async function getSellerPayout(
  db: Database,
  sellerId: string,
  payoutId: string,
): Promise<PayoutDetail> {
  const row = await payoutRows(db).where('pp.id', '=', payoutId).executeTakeFirst();
  if (!row || row.seller_id !== sellerId) throw new AppError('NOT_FOUND', 'We could not find that payout.');
  const lines = await db
    .selectFrom('provider_payout_transfers as x')
    .innerJoin('transfers as t', 't.id', 'x.transfer_id')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .innerJoin('order_titles as ot', 'ot.order_id', 'o.id')
    .select([
      't.id as transfer_id',
      'o.id as order_id',
      'o.reference',
      'ot.title',
      'o.total_minor',
      'o.buyer_protection_minor',
      'o.discount_minor',
      'o.item_price_minor',
      'o.bundle_discount_minor',
      'o.postage_minor',
      't.reversed_minor',
      'x.amount_minor',
      sql<number>`(select coalesce(sum(r.amount_minor), 0) from public.refunds r where r.order_id = o.id)::int`.as(
        'refunded',
      ),
    ])
    .where('x.provider_payout_id', '=', payoutId)
    .orderBy('o.reference')
    .execute();
  const reversals = await db
    .selectFrom('transfer_reversals as r')
    .innerJoin('transfers as t', 't.id', 'r.transfer_id')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .select(['o.id as order_id', 'o.reference', 'r.amount_minor', 'r.created_at'])
    .where(
      't.id',
      'in',
      lines.length > 0 ? lines.map((line) => line.transfer_id) : ['00000000-0000-0000-0000-000000000000'],
    )
    .orderBy('r.created_at')
    .execute();
  return {
    ...summary(row),
    lines: lines.map((line) => ({
      transferId: line.transfer_id,
      orderId: line.order_id,
      reference: line.reference,
      title: line.title ?? '',
      saleMinor: line.item_price_minor - line.bundle_discount_minor + line.postage_minor,
      paidMinor: line.total_minor,
      feeMinor: line.buyer_protection_minor - line.discount_minor,
      refundedMinor: line.refunded,
      reversedMinor: line.reversed_minor,
      amountMinor: line.amount_minor,
    })),
    reversals: reversals.map((r) => ({
      orderId: r.order_id,
      reference: r.reference,
      amountMinor: r.amount_minor,
      createdAt: r.created_at.toISOString(),
    })),
  };
}

// Paying out ----------------------------------------------------------------------------------------

async function lockSeller(trx: Trx, sellerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`payouts:${sellerId}`}))`.execute(trx);
}

/** Tells the seller once why their released earnings wait (again after their account changes). */
async function tellWaiting(
  trx: Trx,
  deps: PayoutDeps,
  sellerId: string,
  reason: PayoutWaitReason,
): Promise<void> {
  const fresh = await trx
    .insertInto('payout_wait_notices')
    .values({ seller_id: sellerId, reason })
    .onConflict((oc) => oc.columns(['seller_id', 'reason']).doNothing())
    .returning('seller_id')
    .executeTakeFirst();
  if (!fresh) return;
  const words = WAIT_WORDS[reason];
  await tell(trx, deps, {
    userId: sellerId,
    kind: 'payout_waiting',
    title: words.title,
    body: words.body,
    link: PAYOUTS_PAGE,
    template: `payout.waiting_${reason}`,
  });
}

/** How many times a transfer is tried (one each run of payouts.send) before it is failed. */
export const TRANSFER_ATTEMPTS = 5;

export interface PayOutReport {
  transfers: number;
  payouts: number;
  waiting: number;
  failed: number;
}

/**
 * Makes the transfers of released sales and pays the sellers' balances out (see the top of the
 * file). `sellerId`: only that seller; `retryFailed`: pay out again after a failed payout
 * without waiting for the account to change (staff's retry).
 */
export async function payOut(
  deps: PayoutDeps,
  options: { sellerId?: string; retryFailed?: boolean } = {},
): Promise<PayOutReport> {
  const report: PayOutReport = { transfers: 0, payouts: 0, waiting: 0, failed: 0 };
  let sellers = deps.db
    .selectFrom('payouts as p')
    .leftJoin('transfers as t', 't.payout_id', 'p.id')
    .select('p.seller_id')
    .distinct()
    .where((eb) =>
      eb.or([
        // Released, not transferred yet, something left to pay.
        eb.and([
          eb('p.status', '=', 'released'),
          eb('t.id', 'is', null),
          eb('p.amount_minor', '>', eb.ref('p.reversed_minor')),
        ]),
        // A transfer still to make (or to try again).
        eb('t.status', '=', 'pending'),
      ]),
    );
  if (options.sellerId) sellers = sellers.where('p.seller_id', '=', options.sellerId);
  const owed = (await sellers.execute()).map((row) => row.seller_id);
  const withBalance = await deps.db
    .selectFrom('ledger_entries')
    .select('seller_id')
    .where('kind', 'in', ['transfer', 'transfer_reversal', 'payout', 'payout_failed'])
    .where('seller_id', 'is not', null)
    .$if(Boolean(options.sellerId), (qb) => qb.where('seller_id', '=', options.sellerId as string))
    .groupBy('seller_id')
    .having(
      sql<number>`sum(case kind when 'payout' then -amount_minor when 'payout_failed' then -amount_minor else amount_minor end)`,
      '>',
      0,
    )
    .execute();
  const all = [...new Set([...owed, ...withBalance.map((row) => row.seller_id as string)])];
  for (const sellerId of all) {
    try {
      await payOutSeller(deps, sellerId, options, report);
    } catch (error) {
      report.failed += 1;
      deps.log?.(`paying out seller ${sellerId} failed`, error);
    }
  }
  return report;
}

async function payOutSeller(
  deps: PayoutDeps,
  sellerId: string,
  options: { retryFailed?: boolean },
  report: PayOutReport,
): Promise<void> {
  // 1. In one transaction: is the seller ready? Then a transfer row for each released sale.
  const ready = await deps.db.transaction().execute(async (trx) => {
    await lockSeller(trx, sellerId);
    const account = await trx
      .selectFrom('connected_accounts')
      .selectAll()
      .where('user_id', '=', sellerId)
      .executeTakeFirst();
    const holds = await openHolds(trx, sellerId);
    const reason = waitReason(account, holds);
    if (reason || !account) {
      if ((await waitingMinor(trx, sellerId)) > 0) {
        await tellWaiting(trx, deps, sellerId, reason ?? 'no_account');
        report.waiting += 1;
      }
      return null;
    }
    const due = await trx
      .selectFrom('payouts as p')
      .leftJoin('transfers as t', 't.payout_id', 'p.id')
      .innerJoin('payments as pay', (join) =>
        join.onRef('pay.order_id', '=', 'p.order_id').on('pay.status', '=', 'succeeded'),
      )
      .select(['p.id', 'p.order_id', 'p.amount_minor', 'p.reversed_minor', 'pay.id as payment_id'])
      .where('p.seller_id', '=', sellerId)
      .where('p.status', '=', 'released')
      .where('t.id', 'is', null)
      .execute();
    const seen = new Set<string>();
    for (const payout of due) {
      const amount = payout.amount_minor - payout.reversed_minor;
      if (amount <= 0 || seen.has(payout.id)) continue;
      seen.add(payout.id);
      await trx
        .insertInto('transfers')
        .values({
          payout_id: payout.id,
          order_id: payout.order_id,
          seller_id: sellerId,
          payment_id: payout.payment_id,
          provider: account.provider,
          destination_account_id: account.provider_account_id,
          amount_minor: amount,
          idempotency_key: `transfer:${payout.id}`,
        })
        .onConflict((oc) => oc.column('payout_id').doNothing())
        .execute();
    }
    return account;
  });
  if (!ready) return;

  // 2. Make each pending transfer (the same idempotency key every time).
  const pending = await deps.db
    .selectFrom('transfers as t')
    .innerJoin('payments as pay', 'pay.id', 't.payment_id')
    .innerJoin('orders as o', 'o.id', 't.order_id')
    .select([
      't.id',
      't.amount_minor',
      't.destination_account_id',
      't.idempotency_key',
      'pay.provider_ref',
      'o.reference',
    ])
    .where('t.seller_id', '=', sellerId)
    .where('t.status', '=', 'pending')
    .orderBy('t.created_at')
    .execute();
  for (const transfer of pending) {
    try {
      const { transferRef } = await deps.payments.createTransfer({
        amountMinor: transfer.amount_minor,
        destinationAccountId: transfer.destination_account_id,
        sourcePaymentRef: transfer.provider_ref,
        idempotencyKey: transfer.idempotency_key,
        reshelfId: transfer.id,
        orderReference: transfer.reference,
      });
      await deps.db.transaction().execute(async (trx) => {
        const made = await trx
          .updateTable('transfers')
          .set({
            status: 'paid',
            provider_ref: transferRef,
            failure_reason: null,
            attempts: sql`attempts + 1`,
          })
          .where('id', '=', transfer.id)
          .where('status', '=', 'pending')
          .returning('id')
          .executeTakeFirst();
        // A refund that came while it was being made is taken back from it now.
        if (made) await settleReversal(trx, deps.payments, transfer.id, null);
      });
      report.transfers += 1;
    } catch (error) {
      report.failed += 1;
      deps.log?.(`transfer ${transfer.id} failed`, error);
      // Tried again at the next run; after TRANSFER_ATTEMPTS it is failed, for staff to retry.
      await deps.db
        .updateTable('transfers')
        .set({
          failure_reason: (error instanceof Error ? error.message : String(error)).slice(0, 500),
          attempts: sql`attempts + 1`,
          status: sql`case when attempts + 1 >= ${TRANSFER_ATTEMPTS} then 'failed' else status end`,
        })
        .where('id', '=', transfer.id)
        .where('status', '=', 'pending')
        .execute();
    }
  }

  // 3. Pay the balance out, unless the last payout failed and the account has not changed since.
  const payout = await deps.db.transaction().execute(async (trx) => {
    await lockSeller(trx, sellerId);
    if ((await openHolds(trx, sellerId)).length > 0) return null;
    const open = await trx
      .selectFrom('provider_payouts')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'pending')
      .where('provider_ref', 'is', null)
      .executeTakeFirst();
    if (open) return open.id; // Made but not yet sent: send it (same key).
    if (!options.retryFailed) {
      const lastFailed = await trx
        .selectFrom('provider_payouts')
        .select('failed_at')
        .where('seller_id', '=', sellerId)
        .where('status', '=', 'failed')
        .orderBy('failed_at', 'desc')
        .executeTakeFirst();
      const account = await trx
        .selectFrom('connected_accounts')
        .select('state_at')
        .where('user_id', '=', sellerId)
        .executeTakeFirst();
      if (lastFailed?.failed_at && (!account?.state_at || account.state_at <= lastFailed.failed_at))
        return null;
    }
    const balance = await providerBalance(trx, sellerId);
    if (balance <= 0) return null;
    const carried = await trx
      .selectFrom('transfers as t')
      .select(['t.id', 't.amount_minor', 't.reversed_minor'])
      .where('t.seller_id', '=', sellerId)
      .where('t.status', 'in', ['paid', 'reversed'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('provider_payout_transfers as x')
              .innerJoin('provider_payouts as pp', 'pp.id', 'x.provider_payout_id')
              .select('x.transfer_id')
              .whereRef('x.transfer_id', '=', 't.id')
              .where('pp.status', 'not in', ['failed', 'canceled']),
          ),
        ),
      )
      .execute();
    const account = await trx
      .selectFrom('connected_accounts')
      .select(['provider', 'provider_account_id'])
      .where('user_id', '=', sellerId)
      .executeTakeFirstOrThrow();
    const id = crypto.randomUUID();
    await trx
      .insertInto('provider_payouts')
      .values({
        id,
        seller_id: sellerId,
        provider: account.provider,
        account_id: account.provider_account_id,
        amount_minor: balance,
        idempotency_key: `payout:${id}`,
      })
      .execute();
    if (carried.length > 0) {
      await trx
        .insertInto('provider_payout_transfers')
        .values(
          carried.map((t) => ({
            provider_payout_id: id,
            transfer_id: t.id,
            amount_minor: t.amount_minor - t.reversed_minor,
          })),
        )
        .execute();
    }
    return id;
  });
  if (!payout) return;
  const row = await deps.db
    .selectFrom('provider_payouts')
    .select(['id', 'account_id', 'amount_minor', 'idempotency_key'])
    .where('id', '=', payout)
    .executeTakeFirstOrThrow();
  const made = await deps.payments.createPayout({
    accountId: row.account_id,
    amountMinor: row.amount_minor,
    idempotencyKey: row.idempotency_key,
    reshelfId: row.id,
  });
  // Only forwards: a webhook may already have said it was paid (or failed).
  await deps.db
    .updateTable('provider_payouts')
    .set({ provider_ref: made.payoutRef, arrival_date: made.arrivalDate })
    .where('id', '=', row.id)
    .execute();
  await deps.db
    .updateTable('provider_payouts')
    .set({ status: made.status })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .execute();
  report.payouts += 1;
}

// Refunds after release ---------------------------------------------------------------------------

/**
 * Takes back from a made transfer what the seller has since given back on the sale (the payout's
 * reversed_minor beyond what the transfer left out), in the caller's transaction, with an
 * idempotency key; answers how much was reversed now.
 */
async function settleReversal(
  trx: Trx,
  payments: PaymentProvider,
  transferId: string,
  refundId: string | null,
): Promise<number> {
  const transfer = await trx
    .selectFrom('transfers as t')
    .innerJoin('payouts as p', 'p.id', 't.payout_id')
    .select([
      't.id',
      't.provider_ref',
      't.status',
      't.amount_minor',
      't.reversed_minor',
      'p.amount_minor as payout_minor',
      'p.reversed_minor as payout_reversed',
    ])
    .where('t.id', '=', transferId)
    .forUpdate(['t'])
    .executeTakeFirst();
  if (transfer?.status !== 'paid' || !transfer.provider_ref) return 0;
  // The transfer was made for payout − what was reversed then; what has been reversed since is owed back.
  const reversedBefore = transfer.payout_minor - transfer.amount_minor;
  const owedBack = Math.min(transfer.amount_minor, Math.max(0, transfer.payout_reversed - reversedBefore));
  const part = owedBack - transfer.reversed_minor;
  if (part <= 0) return 0;
  const idempotencyKey = `reversal:${transfer.id}:${transfer.reversed_minor}:${part}`;
  const { reversalRef } = await payments.reverseTransfer({
    transferRef: transfer.provider_ref,
    amountMinor: part,
    idempotencyKey,
    reason: 'Refund to the buyer after the sale was released',
  });
  await trx
    .insertInto('transfer_reversals')
    .values({
      transfer_id: transfer.id,
      refund_id: refundId,
      amount_minor: part,
      idempotency_key: idempotencyKey,
      provider_ref: reversalRef,
    })
    .execute();
  const reversed = transfer.reversed_minor + part;
  await trx
    .updateTable('transfers')
    .set({ reversed_minor: reversed, status: reversed === transfer.amount_minor ? 'reversed' : 'paid' })
    .where('id', '=', transfer.id)
    .execute();
  return part;
}

/**
 * The refund command (refunds/refund.ts) calls this after taking the seller's part from a
 * released payout: a transfer already made gives that part back now; one not made yet is
 * reversed as soon as it is made (payOut), and a sale not yet transferred is transferred for what
 * is left.
 */
export async function reverseForRefund(
  trx: Trx,
  payments: PaymentProvider,
  orderId: string,
  refundId: string | null,
): Promise<number> {
  const transfer = await trx
    .selectFrom('transfers')
    .select(['id', 'status'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  // Not made yet (or being made): the sender reverses the part as soon as it is made.
  if (transfer?.status !== 'paid') return 0;
  return settleReversal(trx, payments, transfer.id, refundId);
}

// Webhooks ----------------------------------------------------------------------------------------

export type ConnectOutcome = 'duplicate' | 'applied' | 'stale' | 'unknown' | 'no_change';

/** Whether an event is one of Connect's (this feature applies it) rather than a checkout's. */
export function isConnectEvent(event: PaymentEvent): boolean {
  return ['account.updated', 'transfer.updated', 'payout.updated', 'charge.refunded'].includes(event.type);
}

const ACCOUNT_WORDS: Record<ConnectedAccountState, string> = {
  pending: 'Your payout account is being checked by our payment provider.',
  needs_information: 'Our payment provider needs more information before it can pay you.',
  active: 'Your payout account is active: your earnings will be sent to your bank.',
  restricted: 'Our payment provider has paused payouts to your account.',
  rejected: 'Our payment provider could not accept your payout account. Contact us and we will help.',
};

/** Applies a verified Connect event once (see the top of the file); kicks payouts after commit. */
export async function applyConnectEvent(
  deps: PayoutDeps,
  provider: 'test' | 'stripe',
  event: PaymentEvent,
): Promise<ConnectOutcome> {
  const { outcome, kick } = await deps.db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('payment_events')
      .values({
        provider,
        event_id: event.id,
        type: event.type,
        account_id: event.accountId ?? null,
        payload: JSON.stringify(event.raw ?? {}),
      })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    if (!fresh) return { outcome: 'duplicate' as const, kick: null };
    const result = await applyConnect(trx, deps, provider, event);
    await trx
      .updateTable('payment_events')
      .set({ outcome: result.outcome })
      .where('provider', '=', provider)
      .where('event_id', '=', event.id)
      .execute();
    return result;
  });
  if (kick) {
    try {
      await payOut(deps, { sellerId: kick });
    } catch (error) {
      deps.log?.('paying out after a webhook failed', error);
    }
  }
  return outcome;
}

async function applyConnect(
  trx: Trx,
  deps: PayoutDeps,
  provider: 'test' | 'stripe',
  event: PaymentEvent,
): Promise<{ outcome: ConnectOutcome; kick: string | null }> {
  const at = event.createdAt ?? new Date();
  if (event.type === 'account.updated' && event.account) {
    const status = event.account;
    const row = await trx
      .selectFrom('connected_accounts')
      .selectAll()
      .where('provider', '=', provider)
      .where('provider_account_id', '=', status.accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { outcome: 'unknown', kick: null };
    if (row.state_at && row.state_at > at) return { outcome: 'stale', kick: null };
    await trx
      .updateTable('connected_accounts')
      .set({
        state: status.state,
        details_submitted: status.detailsSubmitted,
        payouts_enabled: status.payoutsEnabled,
        requirements_due: status.requirementsDue,
        disabled_reason: status.disabledReason,
        state_at: at,
      })
      .where('user_id', '=', row.user_id)
      .execute();
    if (row.state !== status.state) {
      // A new state: the seller hears of it, and of anything waiting again if it still waits.
      await trx.deleteFrom('payout_wait_notices').where('seller_id', '=', row.user_id).execute();
      const due = describeRequirements(status.requirementsDue);
      await tell(trx, deps, {
        userId: row.user_id,
        kind: 'payout_account',
        title: `Payout account: ${status.state.replace('_', ' ')}`,
        body: [ACCOUNT_WORDS[status.state], due.length > 0 ? `Still needed: ${due.join('; ')}.` : '']
          .filter(Boolean)
          .join(' '),
        link: PAYOUTS_PAGE,
        template: `payout.account_${status.state}`,
      });
    }
    return { outcome: 'applied', kick: status.state === 'active' ? row.user_id : null };
  }

  if (event.type === 'payout.updated' && event.payout) {
    const status = event.payout;
    const row = await trx
      .selectFrom('provider_payouts')
      .selectAll()
      .where('provider', '=', provider)
      .where((eb) =>
        status.reshelfId && /^[0-9a-f-]{36}$/i.test(status.reshelfId)
          ? eb.or([eb('id', '=', status.reshelfId), eb('provider_ref', '=', status.payoutRef)])
          : eb('provider_ref', '=', status.payoutRef),
      )
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { outcome: 'unknown', kick: null };
    if (row.state_at && row.state_at > at) return { outcome: 'stale', kick: null };
    // Failed and cancelled are final; paid may still turn failed (a bank can return a payout).
    const final = row.status === 'failed' || row.status === 'canceled';
    if (final || (row.status === 'paid' && status.status !== 'failed')) {
      await trx
        .updateTable('provider_payouts')
        .set({ state_at: at, provider_ref: row.provider_ref ?? status.payoutRef })
        .where('id', '=', row.id)
        .execute();
      return { outcome: 'no_change', kick: null };
    }
    await trx
      .updateTable('provider_payouts')
      .set({
        status: status.status,
        provider_ref: row.provider_ref ?? status.payoutRef,
        state_at: at,
        arrival_date: status.arrivalDate ?? (row.arrival_date as never),
        failure_code: status.failureCode,
        failure_message: status.failureMessage,
        ...(status.status === 'paid' ? { paid_at: at } : {}),
        ...(status.status === 'failed' || status.status === 'canceled' ? { failed_at: at } : {}),
      })
      .where('id', '=', row.id)
      .execute();
    if (status.status === 'paid' && row.status !== 'paid') {
      await tell(trx, deps, {
        userId: row.seller_id,
        kind: 'payout_paid',
        title: `Payout sent: ${formatPence(row.amount_minor)}`,
        body: `We have paid ${formatPence(row.amount_minor)} to your bank account.${status.arrivalDate ? ` It should arrive by ${status.arrivalDate}.` : ''}`,
        link: `${PAYOUTS_PAGE}?payout=${row.id}`,
        template: 'payout.paid',
      });
    }
    if (status.status === 'failed') {
      await tell(trx, deps, {
        userId: row.seller_id,
        kind: 'payout_failed',
        title: `Payout failed: ${formatPence(row.amount_minor)}`,
        body: `Your bank returned a payout of ${formatPence(row.amount_minor)}${status.failureMessage ? `: ${status.failureMessage}` : '.'} ${whatToDo('failed', status.failureCode)}`,
        link: `${PAYOUTS_PAGE}?payout=${row.id}`,
        template: 'payout.failed',
      });
    }
    return { outcome: 'applied', kick: null };
  }

  if (event.type === 'transfer.updated' && event.transfer) {
    const t = event.transfer;
    // Our records are written when we ask; the event confirms a transfer made while we were not looking.
    if (t.reshelfId && /^[0-9a-f-]{36}$/i.test(t.reshelfId)) {
      const made = await trx
        .updateTable('transfers')
        .set({ provider_ref: t.transferRef, status: 'paid', failure_reason: null })
        .where('id', '=', t.reshelfId)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (made) return { outcome: 'applied', kick: null };
    }
    return { outcome: 'no_change', kick: null };
  }
  return { outcome: 'no_change', kick: null };
}

// For staff (the /admin/payouts) ---------------------------------------------------------------

/**
 * Holds a seller's payouts (no transfer or payout is made while any hold is open); answers the
 * hold's id, or the open hold of that kind already there. Audit it in the caller (staff).
 */
export async function holdPayouts(
  db: Database,
  input: { sellerId: string; kind: 'staff' | 'reporting'; reason: string; by: string | null },
): Promise<{ holdId: string }> {
  const reason = input.reason.trim();
  if (reason.length === 0 || reason.length > 500) {
    throw new AppError('BAD_INPUT', 'Give a reason for the hold (at most 500 characters).');
  }
  const made = await db
    .insertInto('payout_holds')
    .values({ seller_id: input.sellerId, kind: input.kind, reason, created_by: input.by })
    .onConflict((oc) => oc.columns(['seller_id', 'kind']).where('released_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) return { holdId: made.id };
  const open = await db
    .selectFrom('payout_holds')
    .select('id')
    .where('seller_id', '=', input.sellerId)
    .where('kind', '=', input.kind)
    .where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { holdId: open.id };
}

/** Releases a hold with a reason, then pays out what waited (if nothing else holds it). */
export async function releasePayoutHold(
  deps: PayoutDeps,
  input: { holdId: string; reason: string; by: string | null },
): Promise<void> {
  const reason = input.reason.trim();
  if (reason.length === 0 || reason.length > 500) {
    throw new AppError('BAD_INPUT', 'Give a reason for releasing the hold (at most 500 characters).');
  }
  const released = await deps.db
    .updateTable('payout_holds')
    .set({ released_at: new Date(), released_by: input.by, release_reason: reason })
    .where('id', '=', input.holdId)
    .where('released_at', 'is', null)
    .returning('seller_id')
    .executeTakeFirst();
  if (!released) throw new AppError('CONFLICT', 'This hold has already been released. Refresh the page.');
  await deps.db
    .deleteFrom('payout_wait_notices')
    .where('seller_id', '=', released.seller_id)
    .where('reason', '=', 'held')
    .execute();
  await payOut(deps, { sellerId: released.seller_id });
}

/** Staff retry a failed payout: the seller's balance is paid out again now. */
export async function retryFailedPayout(deps: PayoutDeps, providerPayoutId: string): Promise<PayOutReport> {
  const row = await deps.db
    .selectFrom('provider_payouts')
    .select(['seller_id', 'status'])
    .where('id', '=', providerPayoutId)
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', 'We could not find that payout.');
  if (row.status !== 'failed' && row.status !== 'canceled') {
    throw new AppError('PRECONDITION_FAILED', 'Only a failed or cancelled payout can be tried again.');
  }
  return payOut(deps, { sellerId: row.seller_id, retryFailed: true });
}

/** Staff retry a failed transfer: it is made again now, with the same idempotency key. */
export async function retryFailedTransfer(deps: PayoutDeps, transferId: string): Promise<PayOutReport> {
  const row = await deps.db
    .updateTable('transfers')
    .set({ status: 'pending', attempts: 0 })
    .where('id', '=', transferId)
    .where('status', '=', 'failed')
    .returning('seller_id')
    .executeTakeFirst();
  if (!row) {
    throw new AppError('PRECONDITION_FAILED', 'Only a failed transfer can be tried again. Refresh the page.');
  }
  return payOut(deps, { sellerId: row.seller_id });
}
