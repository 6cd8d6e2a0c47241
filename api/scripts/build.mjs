#!/usr/bin/env node
/**
 * Compiles the BFF to JavaScript for production (the Docker image runs it with plain node, no
 * tsx): api/dist/main.js (the server) and api/dist/ops.js (`pnpm ops`, with `bootstrap`), with
 * source maps. The workspace's own code (api/src, packages/contracts, the shared SQL of
 * supabase/functions/_shared) is bundled; every npm package stays an import, resolved at run time
 * from api/node_modules as `pnpm install --prod --filter @reshelf/api...` installs it.
 *
 * Refused at build time, so the image cannot crash at start for them:
 *  - an npm package the bundle imports that is not a dependency of @reshelf/api (a production
 *    install would not have it);
 *  - a module that finds a file from its own import.meta.url (in the bundle that is the bundle's
 *    address): files are found from api/src/paths.ts.
 *
 *   node api/scripts/build.mjs [--outdir DIR]     (default api/dist)
 */
import { readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const API = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = path.resolve(values.outdir ?? path.join(API, 'dist'));

const manifest = JSON.parse(await readFile(path.join(API, 'package.json'), 'utf8'));
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);
const PATHS_MODULE = path.join(API, 'src/paths.ts');
/** Reading a file relative to the module itself. createRequire(import.meta.url) is fine: it
 * resolves packages, which the bundle's address finds in api/node_modules just the same. */
const OWN_ADDRESS =
  /new URL\([^)]*import\.meta\.url|fileURLToPath\(\s*import\.meta\.url|import\.meta\.(?:dirname|filename)/;

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const problems = [];

/** @type {import('esbuild').Plugin} */
const runtimeLayout = {
  name: 'reshelf-runtime-layout',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || builtins.has(args.path))
        return { path: args.path, external: true };
      const name = packageName(args.path);
      // The workspace's packages are source: bundle them.
      if (name.startsWith('@reshelf/')) return undefined;
      if (!dependencies.has(name)) {
        problems.push(
          `${path.relative(API, args.importer)} imports ${args.path}, which is not a dependency of @reshelf/api: a production install would not have it`,
        );
      }
      return { path: args.path, external: true };
    });
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const contents = await readFile(args.path, 'utf8');
      if (args.path !== PATHS_MODULE && OWN_ADDRESS.test(contents)) {
        problems.push(
          `${path.relative(API, args.path)} finds a file from its own import.meta.url, which in the bundle is the bundle's: use api/src/paths.ts`,
        );
      }
      return { contents, loader: 'ts' };
    });
  },
};

await rm(outdir, { recursive: true, force: true });
const started = Date.now();
const result = await build({
  absWorkingDir: API,
  entryPoints: { main: 'src/main.ts', ops: 'scripts/ops.ts' },
  outdir,
  bundle: true,
  splitting: true,
  // Beside the entries, not in a folder: api/src/paths.ts counts two folders up from its chunk.
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  // The oldest Node the project supports (package.json engines).
  target: 'node20.19',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [runtimeLayout],
});
if (problems.length) {
  await rm(outdir, { recursive: true, force: true });
  console.error(`The API build was refused:\n${[...new Set(problems)].map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.js'))
  .reduce((sum, [, output]) => sum + output.bytes, 0);
console.info(
  `[reshelf] built ${path.relative(process.cwd(), outdir) || '.'}/main.js and ops.js (${(bytes / 1024 / 1024).toFixed(1)} MB of JavaScript) in ${Date.now() - started} ms`,
);
