/**
 * A page's filters kept in the address: a zod object schema says which search params there are,
 * their types and defaults. Reading never throws: a value that does not fit its field falls back
 * to that field's default. Writing leaves defaults out of the address, and going to another
 * filter puts the page/cursor back to the first page.
 */
import type { z } from 'zod';

/** A schema whose every field reads one search param (use z.coerce.number(), z.stringbool() for non-strings). */
export type FilterSchema = z.ZodObject<Record<string, z.ZodType>>;

/** The search params that say where in the results the page is: changing any other filter clears them. */
export const PAGE_KEYS = ['page', 'cursor', 'before', 'after'] as const;

function fieldValue(field: z.ZodType, raw: string | undefined): unknown {
  const parsed = field.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fallback = field.safeParse(undefined);
  return fallback.success ? fallback.data : undefined;
}

/** The filters in `params`, typed by the schema; missing or unfit values take their default. */
export function readFilters<S extends FilterSchema>(schema: S, params: URLSearchParams): z.output<S> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const raw = params.get(key);
    values[key] = fieldValue(field, raw === null || raw === '' ? undefined : raw);
  }
  return values as z.output<S>;
}

/** The defaults: what the page shows with none of its params in the address. */
export function defaultFilters<S extends FilterSchema>(schema: S): z.output<S> {
  return readFilters(schema, new URLSearchParams());
}

function asParam(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/**
 * `params` with `patch` applied. A field set to its default (or to undefined/null/'') leaves the
 * address; params the schema does not know are kept. Unless `keepPage`, a change to any field
 * other than the page keys clears the page keys (back to the first page).
 */
export function writeFilters<S extends FilterSchema>(
  schema: S,
  params: URLSearchParams,
  patch: Partial<z.output<S>>,
  { keepPage = false }: { keepPage?: boolean } = {},
): URLSearchParams {
  const next = new URLSearchParams(params);
  const defaults = defaultFilters(schema) as Record<string, unknown>;
  const current = readFilters(schema, params) as Record<string, unknown>;
  let movedFilter = false;
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (!(key in schema.shape)) throw new Error(`"${key}" is not one of this page's filters`);
    if (!(PAGE_KEYS as readonly string[]).includes(key) && asParam(value) !== asParam(current[key])) {
      movedFilter = true;
    }
    const text = asParam(value);
    if (text === null || text === asParam(defaults[key])) next.delete(key);
    else next.set(key, text);
  }
  if (movedFilter && !keepPage) {
    for (const key of PAGE_KEYS) if (!(key in (patch as object))) next.delete(key);
  }
  return next;
}

/** `params` without any of the schema's fields (every filter back to its default). */
export function clearFilters(schema: FilterSchema, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of Object.keys(schema.shape)) next.delete(key);
  return next;
}
