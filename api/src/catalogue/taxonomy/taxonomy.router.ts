/** /admin/categories: the category and genre trees (admins). */
import { z } from 'zod';
import { adminProcedure, router } from '../../trpc.ts';
import {
  addTaxonomyNode,
  moveTaxonomyNode,
  retireTaxonomyNode,
  taxonomyTrees,
  updateTaxonomyNode,
} from './taxonomy.service.ts';

const kind = z.enum(['category', 'genre'], { error: 'Choose category or genre' });
const id = z.string().uuid('Unknown category or genre');
const nodeSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  parentId: z.string().nullable(),
  listings: z.number().int(),
});
const fields = z.object({
  name: z.string().trim().min(1, 'Give it a name').max(80, 'Use at most 80 characters for the name'),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9]+(-[a-z0-9]+)*$/,
      'Use lower-case letters and digits in the slug, joined by single hyphens',
    )
    .max(80, 'Use at most 80 characters for the slug'),
  description: z
    .string()
    .trim()
    .max(500, 'Use at most 500 characters for the description')
    .transform((value) => value || null)
    .nullable()
    .default(null),
  parentId: id.nullable().default(null),
});
const done = z.object({ ok: z.literal(true) });
const ok = { ok: true as const };

export const taxonomyRouter = router({
  trees: adminProcedure
    .input(z.void())
    .output(z.object({ categories: z.array(nodeSchema), genres: z.array(nodeSchema) }))
    .query(({ ctx }) => taxonomyTrees(ctx.db)),

  add: adminProcedure
    .input(fields.extend({ kind }))
    .output(z.object({ id: z.string() }))
    .mutation(({ ctx, input: { kind, ...input } }) =>
      addTaxonomyNode(ctx.db, ctx.user.userId, kind, {
        ...input,
        parentId: kind === 'genre' ? null : input.parentId,
      }),
    ),

  update: adminProcedure
    .input(fields.extend({ kind, id }))
    .output(done)
    .mutation(async ({ ctx, input: { kind, id, ...input } }) => {
      await updateTaxonomyNode(ctx.db, ctx.user.userId, kind, id, {
        ...input,
        parentId: kind === 'genre' ? null : input.parentId,
      });
      return ok;
    }),

  move: adminProcedure
    .input(z.object({ kind, id, direction: z.enum(['up', 'down']) }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await moveTaxonomyNode(ctx.db, ctx.user.userId, input.kind, input.id, input.direction);
      return ok;
    }),

  retire: adminProcedure
    .input(z.object({ kind, id }))
    .output(done)
    .mutation(async ({ ctx, input }) => {
      await retireTaxonomyNode(ctx.db, ctx.user.userId, input.kind, input.id);
      return ok;
    }),
});
