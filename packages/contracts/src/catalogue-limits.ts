/**
 * The catalogue's limits, apart from its schemas (catalogue.ts): the site's header reads them
 * on every page, and a module that builds zod schemas at load would bring zod into the first
 * load (docs/decisions/0066-the-first-load-holds-what-the-first-screen-runs.md).
 */
import { COMMERCIAL_DEFAULTS } from './constants.ts';

export const CATALOGUE_LIMITS = {
  /** Results per page: the default and the most a caller may ask for. */
  pageSize: 24,
  maxPageSize: 48,
  /** Pages beyond this are refused (400); pages past the last result are simply empty. */
  maxPage: 10_000,
  /** Search text is refused (400) beyond this many characters; the web input stops there. */
  maxQueryLength: 200,
  /**
   * Totals are counted up to this many; beyond it the page says "1,000+" (counting every
   * match of a broad filter would cost more than the page itself).
   */
  countCap: 1_000,
  maxPriceMinor: COMMERCIAL_DEFAULTS.maxPriceMinor,
} as const;
