/**
 * Trusted outputs (withTrustedOutput): /trpc skips the output schema of the hot catalogue reads,
 * which keep it for the OpenAPI document and the REST door (which validates with it).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validOutput } from './rest/rest.route.ts';
import { appRouter } from './router.ts';
import { hasTrustedOutput, withTrustedOutput } from './trpc.ts';

const t = initTRPC.create();
const answerSchema = z.object({ title: z.string() });
// An answer its schema would change (strip `extra`): shows whether the schema ran.
const resolve = () => ({ title: 'Emma', extra: 1 }) as { title: string };

describe('a procedure with a trusted output', () => {
  it('answers without its output schema running, and keeps the schema', async () => {
    const checked = t.procedure.output(answerSchema).query(resolve);
    const trusted = withTrustedOutput(t.procedure.output(answerSchema).query(resolve));
    const caller = t.createCallerFactory(t.router({ checked, trusted }))({});
    await expect(caller.checked()).resolves.toStrictEqual({ title: 'Emma' });
    await expect(caller.trusted()).resolves.toStrictEqual({ title: 'Emma', extra: 1 });
    expect((trusted._def as { output?: unknown }).output).toBe(answerSchema);
    expect(hasTrustedOutput(trusted)).toBe(true);
    expect(hasTrustedOutput(checked)).toBe(false);
  });

  it('must declare an output schema', () => {
    expect(() => withTrustedOutput(t.procedure.query(resolve))).toThrow(/no \.output\(\) schema/);
  });

  it('is still validated at the REST door', async () => {
    const trusted = withTrustedOutput(t.procedure.output(answerSchema).query(resolve));
    await expect(
      validOutput({ procedure: trusted as never }, { title: 'Emma', extra: 1 }),
    ).resolves.toStrictEqual({
      title: 'Emma',
    });
    await expect(validOutput({ procedure: trusted as never }, { title: 7 })).rejects.toThrow(TRPCError);
  });
});

describe('the catalogue’s hot reads', () => {
  it('trust their outputs on /trpc; every other procedure validates its own', () => {
    const procedures = (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def
      .procedures;
    const trusted = Object.entries(procedures)
      .filter(([, procedure]) => hasTrustedOutput(procedure))
      .map(([path]) => path)
      .sort();
    expect(trusted).toEqual([
      'catalogue.books.public.bySlug',
      'catalogue.books.public.forListing',
      'catalogue.books.public.search',
      'catalogue.listings.browse',
      'catalogue.listings.bySlug',
      'catalogue.listings.search',
      'catalogue.listings.similar',
      // The book page's series panel, read beside bySlug on every book page.
      'catalogue.series.forWork',
    ]);
  });
});
