/** Small pieces every staff search shares. */

/** Escapes LIKE's wildcards (and its escape character), so a search for "50%" means that. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (match) => `\\${match}`);
}

/**
 * One page of a newest-first keyset search that fetched `limit + 1` rows: the page, and the id
 * to continue before when there is more.
 */
export function keysetPage<Row extends { id: string | number }>(
  rows: Row[],
  limit: number,
): { page: Row[]; nextBefore: string | null } {
  const page = rows.slice(0, limit);
  return { page, nextBefore: rows.length > limit ? String(page.at(-1)!.id) : null };
}
