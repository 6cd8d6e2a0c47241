/**
 * Money out for staff (/admin/payouts, /admin/payments/reconciliation): search the
 * transfers (one per released sale) and the payouts to sellers' banks by seller, state and
 * period; retry a failed one; hold or release a seller's payouts with a reason (audited); and
 * the reconciliation of the one ledger, imbalances first.
 *
 * The money moves through the payouts feature (`payOut`, decision 0046); this file only finds,
 * holds and asks it to try again. Retrying a failed transfer puts it back to 'pending' (payOut
 * makes pending transfers with the same idempotency key); retrying a failed payout asks payOut to
 * pay the seller's balance out again without waiting for their account to change.
 */
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { escapeLike } from '../../db/search.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import {
  holdPayouts,
  type PayoutDeps,
  releasePayoutHold,
  retryFailedPayout,
  retryFailedTransfer,
} from '../money/payouts.ts';

export const MONEY_OUT_KINDS = ['transfers', 'payouts'] as const;
export type MoneyOutKind = (typeof MONEY_OUT_KINDS)[number];

export interface MoneyOutFilter {
  kind: MoneyOutKind;
  /** Seller email or name (part of it). */
  seller?: string | undefined;
  status?: string | undefined;
  /** Created on or after this day / before the day after this one (YYYY-MM-DD, UK). */
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
}

export interface MoneyOutRow {
  id: string;
  kind: 'transfer' | 'payout';
  sellerId: string;
  sellerEmail: string | null;
  sellerName: string | null;
  /** The order a transfer pays (null for a payout). */
  orderId: string | null;
  reference: string | null;
  amountMinor: number;
  reversedMinor: number;
  status: string;
  failure: string | null;
  providerRef: string | null;
  createdAt: string;
  /** Whether staff can retry it (failed, and for a transfer not reversed). */
  retryable: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function day(value: string, end: boolean): Date {
  const [y, m, d] = value.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + (end ? 1 : 0)));
}

export async function searchMoneyOut(db: Database, filter: MoneyOutFilter): Promise<MoneyOutRow[]> {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw new AppError(
      'BAD_INPUT',
      'The period’s start is after its end: choose a “from” day on or before the “to” day.',
    );
  }
  const seller = filter.seller?.trim();
  const sellerMatch = seller ? `%${escapeLike(seller.toLowerCase())}%` : null;
  if (filter.kind === 'transfers') {
    let query = db
      .selectFrom('transfers as t')
      .innerJoin('orders as o', 'o.id', 't.order_id')
      .leftJoin('auth.users as u', 'u.id', 't.seller_id')
      .leftJoin('profiles as pr', 'pr.id', 't.seller_id')
      .select([
        't.id',
        't.seller_id',
        'u.email',
        'pr.display_name',
        't.order_id',
        'o.reference',
        't.amount_minor',
        't.reversed_minor',
        't.status',
        't.failure_reason',
        't.provider_ref',
        't.created_at',
      ])
      .orderBy('t.created_at', 'desc')
      .orderBy('t.id')
      .limit(filter.limit);
    if (filter.status) query = query.where('t.status', '=', filter.status);
    if (filter.from) query = query.where('t.created_at', '>=', day(filter.from, false));
    if (filter.to) query = query.where('t.created_at', '<', day(filter.to, true));
    if (sellerMatch)
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(u.email)`, 'like', sellerMatch),
          eb(sql`lower(pr.display_name)`, 'like', sellerMatch),
          eb('o.reference', 'ilike', sellerMatch),
        ]),
      );
    const rows = await query.execute();
    return rows.map((row) => ({
      id: row.id,
      kind: 'transfer',
      sellerId: row.seller_id,
      sellerEmail: row.email ?? null,
      sellerName: row.display_name ?? null,
      orderId: row.order_id,
      reference: row.reference,
      amountMinor: row.amount_minor,
      reversedMinor: row.reversed_minor,
      status: row.status,
      failure: row.failure_reason,
      providerRef: row.provider_ref,
      createdAt: iso(row.created_at),
      retryable: row.status === 'failed',
    }));
  }
  let query = db
    .selectFrom('provider_payouts as p')
    .leftJoin('auth.users as u', 'u.id', 'p.seller_id')
    .leftJoin('profiles as pr', 'pr.id', 'p.seller_id')
    .select([
      'p.id',
      'p.seller_id',
      'u.email',
      'pr.display_name',
      'p.amount_minor',
      'p.status',
      'p.failure_code',
      'p.failure_message',
      'p.provider_ref',
      'p.created_at',
    ])
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id')
    .limit(filter.limit);
  if (filter.status) query = query.where('p.status', '=', filter.status);
  if (filter.from) query = query.where('p.created_at', '>=', day(filter.from, false));
  if (filter.to) query = query.where('p.created_at', '<', day(filter.to, true));
  if (sellerMatch)
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(u.email)`, 'like', sellerMatch),
        eb(sql`lower(pr.display_name)`, 'like', sellerMatch),
      ]),
    );
  const rows = await query.execute();
  // Only a seller's latest failed payout is retried (its money is back in their balance).
  return rows.map((row) => ({
    id: row.id,
    kind: 'payout',
    sellerId: row.seller_id,
    sellerEmail: row.email ?? null,
    sellerName: row.display_name ?? null,
    orderId: null,
    reference: null,
    amountMinor: row.amount_minor,
    reversedMinor: 0,
    status: row.status,
    failure: [row.failure_code, row.failure_message].filter(Boolean).join(': ') || null,
    providerRef: row.provider_ref,
    createdAt: iso(row.created_at),
    retryable: row.status === 'failed',
  }));
}

/** Tries a failed transfer or payout again (audited); answers what payOut then did. */
export async function retryMoneyOut(
  deps: PayoutDeps,
  input: { kind: 'transfer' | 'payout'; id: string },
): Promise<{ sellerId: string; transfers: number; payouts: number; waiting: number }> {
  const { db } = deps;
  if (input.kind === 'transfer') {
    const transfer = await db
      .selectFrom('transfers')
      .select(['id', 'seller_id', 'status', 'order_id'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!transfer) throw new AppError('NOT_FOUND', 'There is no such transfer. Search again.');
    if (transfer.status !== 'failed') {
      throw new AppError(
        'CONFLICT',
        `Only a failed transfer can be retried; this one is ${transfer.status}.`,
      );
    }
    // Back to pending with its tries reset; payOut makes it with the same idempotency key.
    const report = await retryFailedTransfer(deps, transfer.id);
    await recordAudit(db, {
      action: 'payouts.retry_transfer',
      targetType: 'transfer',
      targetId: transfer.id,
      details: { sellerId: transfer.seller_id, orderId: transfer.order_id, transfers: report.transfers },
    });
    return {
      sellerId: transfer.seller_id,
      transfers: report.transfers,
      payouts: report.payouts,
      waiting: report.waiting,
    };
  } else {
    const payout = await db
      .selectFrom('provider_payouts')
      .select(['id', 'seller_id', 'status'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!payout) throw new AppError('NOT_FOUND', 'There is no such payout. Search again.');
    if (payout.status !== 'failed') {
      throw new AppError('CONFLICT', `Only a failed payout can be retried; this one is ${payout.status}.`);
    }
    const report = await retryFailedPayout(deps, payout.id);
    await recordAudit(db, {
      action: 'payouts.retry_payout',
      targetType: 'provider_payout',
      targetId: payout.id,
      details: { sellerId: payout.seller_id, payouts: report.payouts },
    });
    return {
      sellerId: payout.seller_id,
      transfers: report.transfers,
      payouts: report.payouts,
      waiting: report.waiting,
    };
  }
}

export interface HoldRow {
  id: string;
  sellerId: string;
  sellerEmail: string | null;
  sellerName: string | null;
  kind: 'staff' | 'reporting';
  reason: string;
  createdAt: string;
  createdByEmail: string | null;
}

/** The open holds on sellers' payouts, newest first. */
export async function listHolds(db: Database): Promise<HoldRow[]> {
  const rows = await db
    .selectFrom('payout_holds as h')
    .leftJoin('auth.users as u', 'u.id', 'h.seller_id')
    .leftJoin('profiles as pr', 'pr.id', 'h.seller_id')
    .leftJoin('auth.users as by', 'by.id', 'h.created_by')
    .select([
      'h.id',
      'h.seller_id',
      'u.email',
      'pr.display_name',
      'h.kind',
      'h.reason',
      'h.created_at',
      'by.email as by_email',
    ])
    .where('h.released_at', 'is', null)
    .orderBy('h.created_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    sellerId: row.seller_id,
    sellerEmail: row.email ?? null,
    sellerName: row.display_name ?? null,
    kind: row.kind as 'staff' | 'reporting',
    reason: row.reason,
    createdAt: iso(row.created_at),
    createdByEmail: row.by_email ?? null,
  }));
}

async function findSeller(db: Database, seller: string): Promise<{ id: string; email: string | null }> {
  const value = seller.trim();
  const row = /^[0-9a-f-]{36}$/i.test(value)
    ? await db.selectFrom('auth.users').select(['id', 'email']).where('id', '=', value).executeTakeFirst()
    : await db
        .selectFrom('auth.users')
        .select(['id', 'email'])
        .where(sql`lower(email)`, '=', value.toLowerCase())
        .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND', `There is no member ${value}. Enter the seller’s email address.`);
  return { id: row.id, email: row.email ?? null };
}

/** Holds a seller's payouts (a staff hold) with a reason; audited. */
export async function holdSeller(
  db: Database,
  staffId: string,
  input: { seller: string; reason: string },
): Promise<HoldRow> {
  const seller = await findSeller(db, input.seller);
  const id = await db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom('payout_holds')
      .select('id')
      .where('seller_id', '=', seller.id)
      .where('kind', '=', 'staff')
      .where('released_at', 'is', null)
      .executeTakeFirst();
    if (open) {
      throw new AppError('CONFLICT', `${seller.email ?? 'This seller'}’s payouts are already held by staff.`);
    }
    const { holdId } = await holdPayouts(trx, {
      sellerId: seller.id,
      kind: 'staff',
      reason: input.reason,
      by: staffId,
    });
    await recordAudit(trx, {
      action: 'payouts.hold',
      targetType: 'user',
      targetId: seller.id,
      details: { reason: input.reason },
    });
    return holdId;
  });
  const holds = await listHolds(db);
  const hold = holds.find((row) => row.id === id);
  if (!hold) throw new AppError('INTERNAL', 'The hold was not saved.');
  return hold;
}

/**
 * Releases an open hold (staff or reporting) with a reason; audited. The seller's released
 * earnings then go out (payOut for the seller) unless another hold remains.
 */
export async function releaseHold(
  deps: PayoutDeps,
  staffId: string,
  input: { holdId: string; reason: string },
): Promise<{ released: true; stillHeld: boolean }> {
  const hold = await deps.db
    .selectFrom('payout_holds')
    .select(['id', 'seller_id', 'kind', 'released_at'])
    .where('id', '=', input.holdId)
    .executeTakeFirst();
  if (!hold) throw new AppError('NOT_FOUND', 'There is no such hold. Reload the list.');
  if (hold.released_at) throw new AppError('CONFLICT', 'This hold was already released. Reload the list.');
  // Releases it (once: a second release at the same time is refused) and pays out what waited.
  await releasePayoutHold(deps, { holdId: hold.id, reason: input.reason, by: staffId });
  await recordAudit(deps.db, {
    action: 'payouts.release_hold',
    targetType: 'user',
    targetId: hold.seller_id,
    details: { holdId: hold.id, kind: hold.kind, reason: input.reason },
  });
  const sellerId = hold.seller_id;
  const remaining = await deps.db
    .selectFrom('payout_holds')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('released_at', 'is', null)
    .execute();
  return { released: true, stillHeld: remaining.length > 0 };
}
