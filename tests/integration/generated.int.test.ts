/** Generated files are committed; these fail when they no longer match their sources. */
import { describe, expect, it } from 'vitest';
import { generateDatabaseTypes } from '../../api/scripts/db-types.ts';

describe('generated files', () => {
  it('database types match the migrations (run `pnpm db:types` to refresh)', async () => {
    const result = await generateDatabaseTypes({ verify: true });
    expect(result.output).not.toMatch(/out of date|outdated|differ/i);
    expect(result.ok).toBe(true);
  });
});
