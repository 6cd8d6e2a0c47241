#!/usr/bin/env node
// Type-checks every workspace project with the one TypeScript compiler.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = path.join(root, 'node_modules/.bin/tsc');
let failed = false;
for (const project of ['packages/contracts', 'api', 'web', 'tests', '.']) {
  const result = spawnSync(tsc, ['-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`typecheck failed in ${project}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
