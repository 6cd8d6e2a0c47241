/**
 * Brotli and gzip copies of the built files (`app-1a2b.js` → `app-1a2b.js.br`, `.gz`), made once
 * at build time at the highest quality, so the BFF serves them as they are (@fastify/static's
 * preCompressed) instead of compressing every answer. Only text worth it: 1 KB or more, and only
 * where the copy is smaller.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The built text files: scripts, styles, the page, icons and manifests. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/;
export const PRECOMPRESS_MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(full);
      return Promise.resolve(entry.isFile() ? [full] : []);
    }),
  );
  return nested.flat();
}

/** Writes `.br` and `.gz` next to every compressible file of `dir`; answers how many files got them. */
export async function precompressDir(dir: string): Promise<number> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  let done = 0;
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) return;
      const body = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      let wrote = false;
      if (br.length < body.length) {
        await writeFile(`${file}.br`, br);
        wrote = true;
      }
      if (gzipped.length < body.length) {
        await writeFile(`${file}.gz`, gzipped);
        wrote = true;
      }
      if (wrote) done += 1;
    }),
  );
  return done;
}

/** The Vite plugin: once the build is written (public/ included), compress what is in outDir. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'reshelf-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const started = Date.now();
      const count = await precompressDir(outDir);
      config.logger.info(`precompressed ${count} files (.br, .gz) in ${Date.now() - started} ms`);
    },
  };
}
