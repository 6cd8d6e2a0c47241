import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { publicProcedure, router } from '../trpc.ts';
import { registerLeanTrpc } from './trpc-lean.ts';

describe('declared anonymous answers (decision 0069)', () => {
  it('are refused at start on anything but a query', async () => {
    const mutation = router({
      bad: publicProcedure.meta({ anonymousAnswer: { ok: true } }).mutation(() => ({ ok: true })),
    });
    await expect(
      registerLeanTrpc(Fastify(), { router: mutation, createContext: () => ({}) as never }),
    ).rejects.toThrow('bad: only a query may declare an anonymous answer (it is a mutation)');
    const query = router({
      good: publicProcedure.meta({ anonymousAnswer: { ok: true } }).query(() => ({ ok: true })),
    });
    await expect(
      registerLeanTrpc(Fastify(), { router: query, createContext: () => ({}) as never }),
    ).resolves.toBeUndefined();
  });

  it('are sent only to a caller the app says presents no credential', async () => {
    let calls = 0;
    const app = Fastify();
    const stats = { path: 'lean' as const, lean: 0, stock: 0, anonymous: 0 };
    const declared = router({
      me: publicProcedure.meta({ anonymousAnswer: { user: null } }).query(() => {
        calls += 1;
        return { user: null };
      }),
    });
    let anonymous = true;
    // A context with no caller: enough for a public procedure's middlewares.
    const createContext = () => ({ auth: { claims: null, via: null, rejected: false } }) as never;
    await app.register(
      (scope) => registerLeanTrpc(scope, { router: declared, createContext }, stats, () => anonymous),
      { prefix: '/trpc' },
    );
    const shortcut = await app.inject({ method: 'GET', url: '/trpc/me' });
    expect(shortcut.body).toBe('{"result":{"data":{"user":null}}}');
    expect({ calls, anonymous: stats.anonymous }).toEqual({ calls: 0, anonymous: 1 });
    anonymous = false;
    const called = await app.inject({ method: 'GET', url: '/trpc/me' });
    expect(called.body).toBe(shortcut.body);
    expect({ calls, anonymous: stats.anonymous }).toEqual({ calls: 1, anonymous: 1 });
    await app.close();
  });
});
