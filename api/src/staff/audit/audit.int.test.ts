/**
 * The audit log: append-only, written inside each staff action's transaction (including the
 * existing ones: seed, clean-up, dispute resolution), searchable by staff only, and a staff
 * mutation that forgets to record itself fails outside production.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../../db/index.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { createTestApp, type TestApp } from '../../testing/app.ts';
import { createUser, type TestUser } from '../../testing/auth.ts';
import { api, type RouterInputs, refusal, statusOf } from '../../testing/client.ts';
import { disputedOrder } from '../../testing/orders.ts';
import {
  AUDIT_MISSING_MESSAGE,
  type Context,
  createCallerFactory,
  router,
  staffProcedure,
} from '../../trpc.ts';

let t: TestApp;
let db: Database;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.handle.db;
  admin = await createUser(db, t.services.identity, 'admin@audit.test', { roles: ['admin'] });
  moderator = await createUser(db, t.services.identity, 'moderator@audit.test', { roles: ['moderator'] });
  member = await createUser(db, t.services.identity, 'member@audit.test');
});

afterAll(async () => {
  await t.close();
});

const rowsFor = (action: string) =>
  db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

describe('the audit log table', () => {
  it('is append-only: updates, deletes and truncation are refused', async () => {
    await recordAudit(db, { actorId: admin.id, action: 'test.append', details: { n: 1 } });
    await expect(sql`update public.audit_log set action = 'test.changed'`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from public.audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate public.audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect(await rowsFor('test.append')).toHaveLength(1);
  });

  it('rolls back with the action it records', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await recordAudit(trx, { actorId: admin.id, action: 'test.rolledBack' });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    expect(await rowsFor('test.rolledBack')).toHaveLength(0);
  });
});

describe('existing staff actions are recorded', () => {
  it('commerce.disputes.staff.decide: who, what, the order and the refund, with the request id', async () => {
    const order = await disputedOrder(t);
    const response = await api(t.app, {
      token: moderator.accessToken,
      headers: { 'x-request-id': 'req-resolve-1' },
    }).commerce.disputes.staff.decide.mutate({
      disputeId: order.disputeId,
      decision: 'full_refund',
      note: 'The parcel was lost by the carrier.',
    });
    expect(response.refundedMinor).toBe(order.totalMinor);
    const [row] = await rowsFor('dispute.decide_full_refund');
    expect(row).toMatchObject({
      actor_id: moderator.id,
      actor_email: 'moderator@audit.test',
      target_type: 'dispute',
      target_id: order.disputeId,
      request_id: 'req-resolve-1',
    });
    expect(row!.details).toMatchObject({
      orderId: order.orderId,
      refundedMinor: order.totalMinor,
    });
  });

  it('admin.cleanupListings', async () => {
    const cleanup = await api(t.app, admin.accessToken).staff.dashboard.cleanupListings.mutate({});
    const [cleanupRow] = await rowsFor('admin.cleanupListings');
    expect(cleanupRow).toMatchObject({ actor_email: 'admin@audit.test' });
    expect(cleanupRow!.details).toEqual({ ...cleanup, run_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});

describe('staff.audit.search', () => {
  it('filters by actor, action, text and date; moderators may read it, members may not', async () => {
    await recordAudit(db, {
      actorId: admin.id,
      actorEmail: 'admin@audit.test',
      action: 'listing.remove',
      targetType: 'listing',
      targetId: 'listing-abc',
      details: { reason: 'Counterfeit copy' },
    });
    const search = (input: RouterInputs['staff']['audit']['search']) =>
      api(t.app, moderator.accessToken).staff.audit.search.query(input);
    const byAction = (await search({ action: 'listing' })).rows;
    expect(byAction.map((row) => row.action)).toEqual(['listing.remove']);
    const byActor = (await search({ actor: 'moderator@audit' })).rows;
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((row) => row.actorEmail === 'moderator@audit.test')).toBe(true);
    expect((await search({ q: 'counterfeit' })).rows).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect((await search({ from: today, to: today, action: 'listing.remove' })).rows).toHaveLength(1);
    expect((await search({ to: '2000-01-01' })).rows).toHaveLength(0);
    expect(await statusOf(search({ from: '2026-02-30' }))).toBe(400);
    expect((await refusal(search({ from: '2026-03-02', to: '2026-03-01' }))).message).toMatch(/start date/);

    // Paging: nothing repeated, nothing lost.
    const first = await search({ limit: 2 });
    const second = await search({ limit: 2, before: first.nextBefore! });
    const ids = [...first.rows, ...second.rows].map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);

    expect(await api(t.app, admin.accessToken).staff.audit.actions.query()).toContain('listing.remove');
    expect(await statusOf(api(t.app, member.accessToken).staff.audit.search.query({}))).toBe(403);
  });

  it('names who did it, a member as well as staff, never by a bare id', async () => {
    // A member's own action (closing their account) is recorded without an email.
    await recordAudit(db, { actorId: member.id, actorEmail: null, action: 'test.byMember' });
    await recordAudit(db, { actorId: admin.id, actorEmail: 'admin@audit.test', action: 'test.byStaff' });
    const rows = (await api(t.app, moderator.accessToken).staff.audit.search.query({ action: 'test' })).rows;
    expect(rows.find((row) => row.action === 'test.byMember')).toMatchObject({
      actorName: 'member',
      actorEmail: 'member@audit.test',
    });
    expect(rows.find((row) => row.action === 'test.byStaff')).toMatchObject({
      actorName: 'admin',
      actorEmail: 'admin@audit.test',
    });
  });
});

describe('a staff mutation that forgets the audit log', () => {
  it('fails outside production after its work is done', async () => {
    const forgetful = router({
      act: staffProcedure
        .input(z.object({}))
        .output(z.object({ ok: z.boolean() }))
        .mutation(() => ({ ok: true })),
      remembers: staffProcedure
        .input(z.object({}))
        .output(z.object({ ok: z.boolean() }))
        .mutation(async () => {
          await recordAudit(db, { action: 'test.remembers' });
          return { ok: true };
        }),
    });
    const errors: unknown[] = [];
    const claims = await t.services.identity.verify(admin.accessToken);
    const ctx = {
      db,
      config: t.config,
      auth: { claims },
      req: { id: 'req-forgetful', log: { error: (...args: unknown[]) => errors.push(args), warn: () => {} } },
      res: { header: () => {} },
    } as unknown as Context;
    const caller = createCallerFactory(forgetful)(ctx);
    // The caller sees the plain "something went wrong"; the log names the defect.
    await expect(caller.act({})).rejects.toThrow(/Something went wrong/);
    expect(JSON.stringify(errors)).toContain(AUDIT_MISSING_MESSAGE);
    await expect(caller.remembers({})).resolves.toEqual({ ok: true });
    const [row] = await rowsFor('test.remembers');
    expect(row).toMatchObject({
      actor_id: admin.id,
      actor_email: 'admin@audit.test',
      request_id: 'req-forgetful',
    });
  });
});
