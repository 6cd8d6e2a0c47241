/**
 * Series and completing the set (issue 38, decision 0089): a work's series with every volume,
 * its place, copies on sale and lowest all-in price; what a signed-in member has of it.
 */
import { z } from 'zod';

const slug = z
  .string()
  .trim()
  .min(1, 'Say which book.')
  .max(200, 'That address is too long to be a book’s.')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'That isn’t a book’s address.');

export const SERIES_MESSAGES = {
  notFound: 'There is no such series.',
  noBook: 'There is no such book.',
} as const;

export const seriesForWorkInputSchema = z.object({ slug });
export const seriesBySlugInputSchema = z.object({
  seriesSlug: slug,
});
export const seriesHaveInputSchema = z.object({
  /** The work (book page slug). */
  slug,
  have: z.boolean(),
});

export const seriesVolumeSchema = z.object({
  workSlug: z.string(),
  title: z.string(),
  position: z.number().positive(),
  copiesOnSale: z.number().int().nonnegative(),
  /** The lowest all-in price of a copy on sale (shownPrice, as search shows it), or null. */
  lowestAllInMinor: z.number().int().positive().nullable(),
});
export type SeriesVolume = z.infer<typeof seriesVolumeSchema>;

export const seriesSetSchema = z.object({
  series: z.object({ id: z.uuid(), slug: z.string(), name: z.string() }),
  /** This work's place in the series (null when it has none). */
  position: z.number().positive().nullable(),
  volumes: z.array(seriesVolumeSchema),
});
export type SeriesSet = z.infer<typeof seriesSetSchema>;

/**
 * What a member has of a series: the volumes' work slugs, those of them bought on Reshelf (a
 * purchase is not unmarked by "I don't have this"), and their want for the rest, if any.
 */
export const seriesHoldingsSchema = z.object({
  have: z.array(z.string()),
  bought: z.array(z.string()),
  restWantId: z.uuid().nullable(),
});
export type SeriesHoldings = z.infer<typeof seriesHoldingsSchema>;

/** The member's series: each with every volume and which they have. */
export const memberSeriesSchema = z.array(
  seriesSetSchema.omit({ position: true }).extend({ have: z.array(z.string()) }),
);
export type MemberSeries = z.infer<typeof memberSeriesSchema>;
