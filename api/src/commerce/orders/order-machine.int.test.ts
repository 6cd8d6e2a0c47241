/**
 * Walks the orders state machine: every (from → to) pair over the statuses the
 * SCHEMA allows (read from the orders.status check constraint, not from the table), for every
 * actor. The allowed moves are written out below as the lifecycle of brief §5, independently of
 * TRANSITIONS: each works for its actor (status, columns, event), and every other pair and
 * every wrong actor is refused without writing anything.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createBook, createListing, createPerson } from '../../testing/catalogue.ts';
import { disputedOrder, insertOrderRow, orderDepsFor } from '../../testing/orders.ts';
import { decideAsStaff } from '../disputes/disputes.service.ts';
import { ACTOR_KINDS, type ActorKind, type OrderStatus, TRANSITIONS, transition } from './order-machine.ts';

/** The lifecycle (brief §5, decisions 0012 and 0022): from → to → who may. */
const ALLOWED: Record<string, ActorKind[]> = {
  'pending_payment→paid': ['provider'],
  'cancelled→paid': ['provider'],
  'pending_payment→cancelled': ['provider', 'system'],
  'paid→dispatched': ['seller', 'provider'],
  'paid→cancelled': ['seller', 'system'],
  'dispatched→delivered': ['buyer', 'system', 'provider'],
  'delivered→completed': ['buyer', 'system'],
  'dispatched→disputed': ['buyer'],
  'delivered→disputed': ['buyer'],
  'disputed→completed': ['buyer', 'staff', 'seller', 'charity', 'system'],
  // Issue 25: the seller (or the charity) refunds in full, or confirms the book came back.
  'disputed→refunded': ['staff', 'seller', 'charity', 'system'],
  'paid→refunded': ['staff'],
  'dispatched→refunded': ['staff', 'seller', 'charity'],
  // The system: a trader's return posted back with tracking and not confirmed in time (decision 0073).
  'delivered→refunded': ['staff', 'charity', 'seller', 'system'],
  'completed→refunded': ['staff', 'charity', 'seller', 'system'],
};

/** The columns each target status must fill in (beside the status). */
const FILLS: Partial<Record<OrderStatus, string[]>> = {
  paid: ['paid_at', 'dispatch_by'],
  dispatched: ['dispatched_at', 'carrier', 'tracking_ref', 'delivery_due_at'],
  delivered: ['delivered_at', 'complete_after'],
  completed: ['completed_at'],
  cancelled: ['cancelled_at', 'cancel_reason'],
  refunded: ['refunded_at'],
};

let t: TestApp;
let db: Database;
let statuses: OrderStatus[];
let eventKinds: string[];
let order: { buyerId: string; sellerId: string; listingId: string };

/** The quoted values of the check constraint on `table`.`column`. */
async function checkValues(table: string, column: string): Promise<string[]> {
  const { rows } = await sql<{ def: string }>`
    select pg_get_constraintdef(c.oid) as def from pg_constraint c
    where c.conrelid = ${`public.${table}`}::regclass and c.contype = 'c'`.execute(db);
  const def = rows.map((row) => row.def).find((text) => new RegExp(`\\(${column}\\b`).test(text));
  if (!def) throw new Error(`no check constraint on ${table}.${column}`);
  return [...def.matchAll(/'([a-z_]+)'::text/g)].map((match) => match[1]!);
}

const ROLLBACK = new Error('rollback');

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  statuses = (await checkValues('orders', 'status')) as OrderStatus[];
  eventKinds = await checkValues('order_events', 'actor_kind');
  const sellerId = await createPerson(db, 'seller@order-machine.test');
  const buyerId = await createPerson(db, 'buyer@order-machine.test');
  const bookId = await createBook(db, { title: 'The state machine' });
  const listing = await createListing(db, { sellerId, bookId, price: 1000, status: 'sold' });
  order = { buyerId, sellerId, listingId: listing.id };
});

afterAll(async () => {
  await t.close();
});

type Outcome =
  | {
      ok: true;
      row: Record<string, unknown>;
      events: { from_status: string | null; to_status: string; actor_kind: string }[];
    }
  | { ok: false; code: string; status: string; events: number };

/** Makes an order in `from` and moves it to `to` as `actor`, in a transaction rolled back after. */
async function attempt(from: OrderStatus, to: OrderStatus, actor: ActorKind): Promise<Outcome> {
  let outcome: Outcome | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      const row = await insertOrderRow(trx, {
        buyer_id: order.buyerId,
        seller_id: order.sellerId,
        listing_id: order.listingId,
        status: from,
        item_price_minor: 1000,
        postage_minor: 300,
        total_minor: 1300,
        shipping_address: JSON.stringify({ postcode: 'BA1 1AA' }),
      });
      const events = () =>
        trx
          .selectFrom('order_events')
          .select(['from_status', 'to_status', 'actor_kind'])
          .where('order_id', '=', row.id)
          .execute();
      try {
        const moved = await transition(trx, row, to, { id: null, kind: actor }, 'A note', {
          carrier: 'dpd',
          trackingRef: '15501234567890',
        });
        const stored = await trx
          .selectFrom('orders')
          .selectAll()
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        expect(moved.order).toEqual(stored);
        outcome = { ok: true, row: stored, events: await events() };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const stored = await trx
          .selectFrom('orders')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        outcome = { ok: false, code: error.code, status: stored.status, events: (await events()).length };
      }
      throw ROLLBACK;
    })
    .catch((error) => {
      if (error !== ROLLBACK) throw error;
    });
  return outcome!;
}

describe('the orders state machine', () => {
  it('knows every status and every actor kind the schema has', () => {
    expect(statuses).toHaveLength(8);
    for (const kind of eventKinds) expect(ACTOR_KINDS).toContain(kind);
    for (const rule of TRANSITIONS) {
      expect(statuses).toContain(rule.from);
      expect(statuses).toContain(rule.to);
    }
  });

  it('holds exactly the lifecycle: no move missing, none extra', () => {
    const table = Object.fromEntries(
      TRANSITIONS.map((rule) => [`${rule.from}→${rule.to}`, Object.keys(rule.by).sort()]),
    );
    const expected = Object.fromEntries(
      Object.entries(ALLOWED).map(([pair, who]) => [pair, [...who].sort()]),
    );
    expect(table).toEqual(expected);
    expect(TRANSITIONS).toHaveLength(Object.keys(ALLOWED).length);
  });

  it('makes every allowed move for its actor, and refuses every other pair and every other actor', async () => {
    let allowed = 0;
    let refused = 0;
    for (const from of statuses) {
      for (const to of statuses) {
        const who = ALLOWED[`${from}→${to}`] ?? [];
        for (const actor of ACTOR_KINDS) {
          const outcome = await attempt(from, to, actor);
          const label = `${from} → ${to} by ${actor}`;
          if (who.includes(actor)) {
            allowed += 1;
            expect(outcome.ok, label).toBe(true);
            if (!outcome.ok) continue;
            expect(outcome.row.status, label).toBe(to);
            for (const column of FILLS[to] ?? [])
              expect(outcome.row[column], `${label}: ${column}`).not.toBeNull();
            if (to === 'paid') {
              expect(outcome.row.cancelled_at, label).toBeNull();
              expect(outcome.row.cancel_reason, label).toBeNull();
            }
            expect(outcome.events, label).toEqual([
              { from_status: from, to_status: to, actor_kind: actor === 'charity' ? 'seller' : actor },
            ]);
          } else {
            refused += 1;
            expect(outcome, label).toEqual({
              ok: false,
              // A pair the lifecycle does not have: the order has moved on; a wrong actor: forbidden.
              code: who.length ? 'FORBIDDEN' : 'PRECONDITION_FAILED',
              status: from,
              events: 0,
            });
          }
        }
      }
    }
    expect(allowed).toBe(Object.values(ALLOWED).flat().length);
    expect(allowed + refused).toBe(statuses.length * statuses.length * ACTOR_KINDS.length);
  });

  it('refuses a move whose order has moved on meanwhile (the conditional update)', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        const row = await insertOrderRow(trx, {
          buyer_id: order.buyerId,
          seller_id: order.sellerId,
          listing_id: order.listingId,
          status: 'delivered',
          item_price_minor: 1000,
          total_minor: 1000,
        });
        await trx.updateTable('orders').set({ status: 'disputed' }).where('id', '=', row.id).execute();
        await expect(transition(trx, row, 'completed', { id: null, kind: 'system' })).rejects.toMatchObject({
          code: 'PRECONDITION_FAILED',
        });
        const stored = await trx
          .selectFrom('orders')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        expect(stored.status).toBe('disputed');
        throw ROLLBACK;
      })
      .catch((error) => {
        if (error !== ROLLBACK) throw error;
      });
  });

  it('stamps refunded_at on a dispute refund too, as the dashboard counts refunded orders by it', async () => {
    const order = await disputedOrder(t);
    const staff = await createPerson(db, 'staff@order-machine.test');
    await decideAsStaff(orderDepsFor(t), staff, {
      disputeId: order.disputeId,
      decision: 'full_refund',
      note: 'Lost.',
    });
    const row = await db
      .selectFrom('orders')
      .select(['status', 'refunded_at'])
      .where('id', '=', order.orderId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('refunded');
    expect(row.refunded_at).toBeInstanceOf(Date);
  });
});
