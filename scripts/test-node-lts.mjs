#!/usr/bin/env node
// The unit and integration tests again, on the Node the Docker image ships (docker/Dockerfile's
// NODE_VERSION: the Active LTS, decisions 0030 and 0062), when this machine's Node is another
// major (CI's and the README's set-up run on what the machine has, Node 20 here). That Node comes
// from npm's `node-<platform>-<arch>` package, installed at run time into a scratch folder,
// node_modules/.cache/reshelf-node-<major> (ignored by git: never committed; readable by the
// ordinary user a test starts the site as, which a home directory's cache may not be), as
// scripts/ensure-chromium.mjs installs Chromium; a second run finds it there.
//
//   node scripts/test-node-lts.mjs [--print-node]   (--print-node: install if needed, print its path)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The image's Node, from the one place it is written. */
export function imageNodeVersion() {
  const dockerfile = readFileSync(path.join(root, 'docker/Dockerfile'), 'utf8');
  const version = /^ARG NODE_VERSION=(\d+)\.(\d+)\.(\d+)$/m.exec(dockerfile);
  if (!version) throw new Error('docker/Dockerfile has no "ARG NODE_VERSION=<major>.<minor>.<patch>"');
  return { full: `${version[1]}.${version[2]}.${version[3]}`, major: Number(version[1]) };
}

/** The node binary of that major, installed from npm into the scratch folder when missing. */
function ensureNode(major) {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const name = `node-${platform}-${process.arch}`;
  const scratch = path.join(root, 'node_modules', '.cache', `reshelf-node-${major}`);
  const binary = path.join(scratch, 'node_modules', name, 'bin', 'node');
  const works = () =>
    existsSync(binary) &&
    spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.startsWith(`v${major}.`);
  if (!works()) {
    console.info(`[reshelf] installing Node ${major} (npm's ${name}@${major}) into ${scratch}…`);
    mkdirSync(scratch, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        scratch,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        `${name}@${major}`,
      ],
      { stdio: 'inherit' },
    );
    if (!works()) throw new Error(`${binary} is not a Node ${major} after installing ${name}@${major}`);
  }
  return binary;
}

const { major } = imageNodeVersion();
const node = ensureNode(major);
if (process.argv.includes('--print-node')) {
  console.info(node);
  process.exit(0);
}
const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.info(`[reshelf] unit and integration tests on Node ${version} (${node})`);
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const result = spawnSync(node, [vitest, 'run', '--project', 'unit', '--project', 'integration'], {
  cwd: root,
  stdio: 'inherit',
  // The test processes vitest starts run on this Node too (they are forked from process.execPath).
  env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
});
process.exit(result.status ?? 1);
