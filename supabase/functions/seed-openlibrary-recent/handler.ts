import snapshot from '../_shared/books-snapshot.json' with { type: 'json' };
import { createHandler } from '../_shared/handler.ts';
import { OPEN_LIBRARY_SEARCH_URL, seedOpenLibraryRecent } from '../_shared/seed.ts';

/**
 * Hosted mode reads Open Library's recent books, falling back to the bundled snapshot when it
 * cannot. OPENLIBRARY_SEARCH_URL points the function elsewhere (the tests use a local stand-in);
 * set it empty to use the snapshot only.
 */
const searchUrl = Deno.env.get('OPENLIBRARY_SEARCH_URL') ?? OPEN_LIBRARY_SEARCH_URL;

export const handler = createHandler('seed-openlibrary-recent', ({ sql, body }) =>
  seedOpenLibraryRecent(sql, body, {
    snapshot,
    fetch: searchUrl ? fetch : undefined,
    searchUrl,
    log: (message) => console.info(message),
  }),
);
