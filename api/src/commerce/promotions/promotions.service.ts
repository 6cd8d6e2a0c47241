/**
 * Promotions (/admin/promotions): discount codes besides the built-in WELCOME20 first-order
 * gift (decision 0019). Admins create, edit, pause and resume them; moderators may read the
 * list. Every change is audited. Checkout asks `checkPromotion` whether a code applies.
 *
 * A code's uses are the orders that carry it and are not cancelled or refunded: a payment
 * that never completed, or money that all went back, gives the use back. A pending order
 * (the 15 minutes the book is reserved while the buyer pays) holds its use until it lapses.
 */
import { countOf, formatPence, percentOf, WELCOME_GIFT } from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';

type Executor = Database | Transaction<DB>;

export type PromotionKind = 'percent' | 'fixed';
export type PromotionStatus = 'scheduled' | 'live' | 'ended' | 'paused' | 'exhausted';

export interface PromotionInput {
  kind: PromotionKind;
  /** 1–90 for a percentage; null for a fixed amount. */
  percentOff: number | null;
  /** Pence off for a fixed amount; null for a percentage. */
  amountOffMinor: number | null;
  /** The item price (before postage and protection) the order must reach, if any. */
  minItemMinor: number | null;
  startsAt: string;
  endsAt: string;
  totalLimit: number | null;
  perBuyerLimit: number;
}

export interface Promotion extends PromotionInput {
  id: string;
  code: string;
  active: boolean;
  status: PromotionStatus;
  redemptions: number;
  discountedMinor: number;
  createdAt: string;
  updatedAt: string;
}

/** The order statuses whose code use does not count (decision 0019). */
export const RELEASED_STATUSES = ['cancelled', 'refunded'] as const;

const GONE = 'That promotion no longer exists. Refresh the page.';

export function promotionStatus(
  row: { active: boolean; starts_at: Date; ends_at: Date; total_limit: number | null },
  redemptions: number,
  now = new Date(),
): PromotionStatus {
  if (row.ends_at.getTime() <= now.getTime()) return 'ended';
  if (!row.active) return 'paused';
  if (row.starts_at.getTime() > now.getTime()) return 'scheduled';
  if (row.total_limit !== null && redemptions >= row.total_limit) return 'exhausted';
  return 'live';
}

/** Newest first, with each code's uses and the pence they took off so far. */
export async function listPromotions(db: Database): Promise<Promotion[]> {
  const rows = await db
    .selectFrom('promotions as p')
    // Its uses and what it took off (the money definitions' promotion_money).
    .leftJoin('promotion_money as pm', 'pm.promotion_id', 'p.id')
    .select([
      'p.id',
      'p.code',
      'p.kind',
      'p.percent_off',
      'p.amount_off_minor',
      'p.min_item_minor',
      'p.starts_at',
      'p.ends_at',
      'p.total_limit',
      'p.per_buyer_limit',
      'p.active',
      'p.created_at',
      'p.updated_at',
      sql<number>`coalesce(pm.redemptions, 0)`.as('redemptions'),
      sql<number>`coalesce(pm.discounted_minor, 0)`.as('discounted_minor'),
    ])
    .orderBy('p.created_at', 'desc')
    .execute();
  const now = new Date();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    kind: row.kind as PromotionKind,
    percentOff: row.percent_off,
    amountOffMinor: row.amount_off_minor,
    minItemMinor: row.min_item_minor,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    totalLimit: row.total_limit,
    perBuyerLimit: row.per_buyer_limit,
    active: row.active,
    status: promotionStatus(
      { ...row, starts_at: new Date(row.starts_at), ends_at: new Date(row.ends_at) },
      row.redemptions,
      now,
    ),
    redemptions: row.redemptions,
    discountedMinor: row.discounted_minor,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }));
}

const columns = (input: PromotionInput) => ({
  kind: input.kind,
  percent_off: input.kind === 'percent' ? input.percentOff : null,
  amount_off_minor: input.kind === 'fixed' ? input.amountOffMinor : null,
  min_item_minor: input.minItemMinor,
  starts_at: new Date(input.startsAt),
  ends_at: new Date(input.endsAt),
  total_limit: input.totalLimit,
  per_buyer_limit: input.perBuyerLimit,
});

/** The checks the database also makes, with messages for the person filling in the form. */
function assertSensible(input: PromotionInput): void {
  if (new Date(input.endsAt).getTime() <= new Date(input.startsAt).getTime()) {
    throw new AppError('BAD_INPUT', 'The end must be after the start.');
  }
  if (input.kind === 'percent' && input.percentOff === null) {
    throw new AppError('BAD_INPUT', 'Say what percentage the code takes off (1 to 90).');
  }
  if (input.kind === 'fixed' && input.amountOffMinor === null) {
    throw new AppError('BAD_INPUT', 'Say how much the code takes off.');
  }
}

async function usesOf(db: Executor, promotionId: string, buyerId?: string): Promise<number> {
  let query = db
    .selectFrom('orders')
    .select(sql<number>`count(*)::int`.as('uses'))
    .where('promotion_id', '=', promotionId)
    .where('status', 'not in', [...RELEASED_STATUSES]);
  if (buyerId) query = query.where('buyer_id', '=', buyerId);
  const row = await query.executeTakeFirstOrThrow();
  return row.uses;
}

export async function createPromotion(
  db: Database,
  staffId: string,
  input: PromotionInput & { code: string },
): Promise<{ id: string }> {
  const code = input.code.toUpperCase();
  if (code === WELCOME_GIFT.code) {
    throw new AppError(
      'BAD_INPUT',
      'WELCOME20 is the built-in first-order gift, so it cannot be a promotion. Choose another code.',
    );
  }
  assertSensible(input);
  return db.transaction().execute(async (trx) => {
    const created = await trx
      .insertInto('promotions')
      .values({ ...columns(input), code, created_by: staffId })
      .onConflict((oc) => oc.column('code').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!created) throw new AppError('CONFLICT', `There is already a promotion with the code ${code}.`);
    await recordAudit(trx, {
      actorId: staffId,
      action: 'promotion.create',
      targetType: 'promotion',
      targetId: created.id,
      details: { ...input, code },
    });
    return { id: created.id };
  });
}

/** Changes everything but the code; the total limit cannot go below the uses so far. */
export async function updatePromotion(
  db: Database,
  staffId: string,
  id: string,
  input: PromotionInput,
): Promise<void> {
  assertSensible(input);
  await db.transaction().execute(async (trx) => {
    // Locked like checkout locks it, so no order can take a use between the count and the change.
    const current = await trx
      .selectFrom('promotions')
      .select(['code'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new AppError('NOT_FOUND', GONE);
    const used = await usesOf(trx, id);
    if (input.totalLimit !== null && input.totalLimit < used) {
      throw new AppError(
        'BAD_INPUT',
        `${current.code} has been used ${countOf(used, 'time', 'times')}, so the total limit cannot be lower than ${used}.`,
      );
    }
    await trx.updateTable('promotions').set(columns(input)).where('id', '=', id).execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: 'promotion.update',
      targetType: 'promotion',
      targetId: id,
      details: { code: current.code, ...input },
    });
  });
}

/** Pauses a code (checkout refuses it) or lets it run again. */
export async function setPromotionActive(
  db: Database,
  staffId: string,
  id: string,
  active: boolean,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('promotions')
      .select(['code', 'active'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new AppError('NOT_FOUND', GONE);
    if (current.active === active) {
      throw new AppError(
        'CONFLICT',
        `${current.code} is already ${active ? 'running' : 'paused'}. Refresh the page.`,
      );
    }
    await trx.updateTable('promotions').set({ active }).where('id', '=', id).execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: active ? 'promotion.resume' : 'promotion.pause',
      targetType: 'promotion',
      targetId: id,
      details: { code: current.code },
    });
  });
}

export type PromotionCheck =
  | { ok: true; promotionId: string; code: string; discountMinor: number; label: string }
  | { ok: false; message: string };

const londonDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * Whether `code` takes money off an item of `itemMinor` for this buyer, and how much (never
 * more than the item). With `lock`, called inside the order's transaction, the promotion row
 * is locked first (`select … for update`), so concurrent checkouts by different buyers count
 * the total uses one after another; the checkout's per-buyer lock does the same for a buyer.
 */
export async function checkPromotion(
  db: Executor,
  buyerId: string,
  code: string,
  itemMinor: number,
  options: { lock?: boolean } = {},
): Promise<PromotionCheck> {
  let query = db
    .selectFrom('promotions')
    .select([
      'id',
      'code',
      'kind',
      'percent_off',
      'amount_off_minor',
      'min_item_minor',
      'starts_at',
      'ends_at',
      'total_limit',
      'per_buyer_limit',
      'active',
    ])
    .where('code', '=', code.trim());
  if (options.lock) query = query.forUpdate();
  const promotion = await query.executeTakeFirst();
  if (!promotion) return { ok: false, message: 'We don’t recognise that code.' };
  const now = Date.now();
  if (new Date(promotion.ends_at).getTime() <= now) return { ok: false, message: 'This code has expired.' };
  if (!promotion.active) return { ok: false, message: 'This code is not available at the moment.' };
  if (new Date(promotion.starts_at).getTime() > now) {
    return {
      ok: false,
      message: `This code can be used from ${londonDay.format(new Date(promotion.starts_at))}.`,
    };
  }
  if (promotion.min_item_minor !== null && itemMinor < promotion.min_item_minor) {
    return {
      ok: false,
      message: `Spend at least ${formatPence(promotion.min_item_minor)} to use this code.`,
    };
  }
  if (promotion.total_limit !== null && (await usesOf(db, promotion.id)) >= promotion.total_limit) {
    return { ok: false, message: 'This code has reached its limit.' };
  }
  const mine = await usesOf(db, promotion.id, buyerId);
  if (mine >= promotion.per_buyer_limit) {
    return {
      ok: false,
      message:
        promotion.per_buyer_limit === 1
          ? 'You have already used this code.'
          : `You have already used this code ${mine} times, its limit for each buyer.`,
    };
  }
  const percent = promotion.kind === 'percent' ? (promotion.percent_off ?? 0) : null;
  const discountMinor = Math.min(
    itemMinor,
    percent !== null ? percentOf(itemMinor, percent) : (promotion.amount_off_minor ?? 0),
  );
  return {
    ok: true,
    promotionId: promotion.id,
    code: promotion.code,
    discountMinor,
    label: percent !== null ? `${percent}% off` : `${formatPence(promotion.amount_off_minor ?? 0)} off`,
  };
}
