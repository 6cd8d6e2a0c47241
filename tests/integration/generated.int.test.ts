/** Generated files are committed; these fail when they no longer match their sources. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateDatabaseTypes } from '../../api/scripts/db-types.ts';
import { OPENAPI_FILE, renderOpenApiDocument } from '../../api/src/rest/document.ts';

describe('generated files', () => {
  it('database types match the migrations (run `pnpm db:types` to refresh)', async () => {
    const result = await generateDatabaseTypes({ verify: true });
    expect(result.output).not.toMatch(/out of date|outdated|differ/i);
    expect(result.ok).toBe(true);
  });

  it('the OpenAPI document matches the published procedures (run `pnpm openapi` to refresh)', async () => {
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    expect(committed === renderOpenApiDocument(), 'openapi/openapi.json is stale: run `pnpm openapi`').toBe(
      true,
    );
  });
});
