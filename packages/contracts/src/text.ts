/**
 * Text that may be stored. PostgreSQL refuses the NUL character (0x00) in text and jsonb, and
 * jsonb refuses half of a UTF-16 surrogate pair (a lone surrogate, which no real character
 * is), so both are refused at the boundary, once, with a 400 naming the field, before any
 * schema or handler sees them: api/src/trpc.ts for every procedure; the multipart, CSV and
 * REST routes use the same check.
 */

export const NUL_MESSAGE = 'Text cannot contain a NUL character';
export const LONE_SURROGATE_MESSAGE =
  'Text contains a broken character (half of a surrogate pair): type or paste it again';

export type FieldPath = (string | number)[];

const MAX_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a piece of text for storing it, or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_MESSAGE;
  return null;
}

export interface TextFault {
  path: FieldPath;
  message: string;
}

/**
 * The first text in a value made of JSON-like parts (strings, arrays, plain objects and their
 * keys) that cannot be stored: its path (`[]` for the value itself) and why; or null.
 */
export function findTextFault(value: unknown, path: FieldPath = [], depth = 0): TextFault | null {
  if (typeof value === 'string') {
    const message = textProblem(value);
    return message ? { path, message } : null;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findTextFault(value[index], [...path, index], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: [...path, key], message: keyProblem };
    const found = findTextFault(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** A path as a person reads it: `items.2.title` (a NUL in a key shown as \0). */
export function fieldName(path: FieldPath): string {
  return path
    .map((part) =>
      String(part)
        .replaceAll('\u0000', '\\0')
        .replace(/[\uD800-\uDFFF]/g, '\uFFFD'),
    )
    .join('.');
}

/** "title: Text cannot contain a NUL character", or the bare message for the value itself. */
export function describeTextFault(fault: TextFault): string {
  return fault.path.length ? `${fieldName(fault.path)}: ${fault.message}` : fault.message;
}
