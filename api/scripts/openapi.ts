/**
 * Writes the REST API's OpenAPI document (openapi/openapi.json) from the published procedures.
 *   pnpm openapi            write the file
 *   pnpm openapi --verify   exit non-zero when the committed file is stale
 * A test runs the same check, and the OpenAPI linter (Redocly, offline) runs in pnpm test:all.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OPENAPI_FILE, renderOpenApiDocument } from '../src/rest/document.ts';

const verify = process.argv.includes('--verify');
const fresh = renderOpenApiDocument();
const relative = path.relative(process.cwd(), OPENAPI_FILE);
if (verify) {
  const committed = await readFile(OPENAPI_FILE, 'utf8').catch(() => '');
  if (committed !== fresh) {
    console.error(`${relative} is stale: run \`pnpm openapi\` and commit it.`);
    process.exit(1);
  }
  console.info(`${relative} is up to date`);
} else {
  await writeFile(OPENAPI_FILE, fresh);
  console.info(`wrote ${relative}`);
}
