/**
 * Text that may be stored: PostgreSQL refuses the NUL character (0x00) in text and jsonb, so a
 * NUL anywhere in what a client sends is refused at the boundary, once, with a 400 naming the
 * field, before any schema or handler sees it (api/src/trpc.ts for every procedure; the
 * multipart, CSV and REST routes use the same check).
 */

export const NUL_MESSAGE = 'Text cannot contain a NUL character';

export type FieldPath = (string | number)[];

const MAX_DEPTH = 64;

/**
 * Where the first NUL is in a value made of JSON-like parts (strings, arrays, plain objects
 * and their keys): its path, `[]` for the value itself, or null when there is none.
 */
export function findNul(value: unknown, path: FieldPath = [], depth = 0): FieldPath | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findNul(value[index], [...path, index], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNul(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** A path as a person reads it: `items.2.title` (a NUL in a key shown as \0). */
export function fieldName(path: FieldPath): string {
  return path.map((part) => String(part).replaceAll('\u0000', '\\0')).join('.');
}

/** "title: Text cannot contain a NUL character", or the bare message for the value itself. */
export function nulProblem(path: FieldPath): string {
  return path.length ? `${fieldName(path)}: ${NUL_MESSAGE}` : NUL_MESSAGE;
}
