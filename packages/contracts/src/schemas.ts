import { z } from 'zod';
import { NEXT_PATH_MAX, safeNextPath } from './next-path.ts';

export const slugSchema = z
  .string()
  .trim()
  .min(1, 'Enter a slug')
  .max(120, 'A slug is at most 120 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens');

/**
 * A URL slug from a title: accents dropped, lower case, runs of anything else made one hyphen,
 * at most 80 characters ("Brontë's Jane Eyre" → "brontes-jane-eyre"). Empty when nothing is left.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

export const categorySchema = z.object({
  id: z.string().uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  parentId: z.string().uuid().nullable(),
  position: z.number().int(),
});
export type Category = z.infer<typeof categorySchema>;

export const genreSchema = z.object({
  id: z.string().uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
});
export type Genre = z.infer<typeof genreSchema>;

/** `next` in an API input: a same-site path, or refused with a message saying so. */
export const nextPathSchema = z
  .string()
  .max(NEXT_PATH_MAX, `next is at most ${NEXT_PATH_MAX} characters`)
  .refine(
    (value) => safeNextPath(value) !== null,
    'next must be a path on this site that starts with a single /, like /checkout?listing=…',
  )
  .transform((value) => safeNextPath(value) as string);
