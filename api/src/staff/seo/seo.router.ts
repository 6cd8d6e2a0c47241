/** /admin/seo: search-engine titles and descriptions of static and category pages (admins). */
import { slugSchema } from '@reshelf/contracts';
import { z } from 'zod';
import { adminProcedure, router } from '../../trpc.ts';
import { listSeo, setSeo } from './seo.service.ts';

const entrySchema = z.object({
  slug: z.string(),
  name: z.string(),
  defaultDescription: z.string().nullable(),
  seoTitle: z.string().nullable(),
  seoDescription: z.string().nullable(),
});
const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `Keep the ${what} to ${max} characters or fewer (search engines cut the rest)`)
    .transform((value) => value || null)
    .nullable()
    .default(null);

export const seoRouter = router({
  list: adminProcedure
    .input(z.void())
    .output(z.object({ pages: z.array(entrySchema), categories: z.array(entrySchema) }))
    .query(({ ctx }) => listSeo(ctx.db)),

  set: adminProcedure
    .input(
      z.object({
        kind: z.enum(['page', 'category'], { error: 'Choose a static page or a category' }),
        slug: slugSchema,
        seoTitle: optionalText(70, 'title'),
        seoDescription: optionalText(160, 'description'),
      }),
    )
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await setSeo(ctx.db, ctx.user.userId, input);
      return { ok: true as const };
    }),
});
