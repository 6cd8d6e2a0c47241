import { z } from 'zod';

export const slugSchema = z
  .string()
  .trim()
  .min(1, 'Enter a slug')
  .max(120, 'A slug is at most 120 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens');

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
