/**
 * Runtimes (decision 0062): `engines` says what the toolchain accepts (Node 20.19+ for
 * the README's set-up, which a machine with only Node 20 and npm runs, and the LTS lines after
 * it); CI runs the unit and integration tests a second time on the Node the Docker image ships,
 * installed from npm at run time (scripts/test-node-lts.mjs), never committed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const imageVersion = /^ARG NODE_VERSION=(\d+)\.(\d+)\.(\d+)$/m.exec(read('docker/Dockerfile'));

/** Whether `version` (x.y.z) satisfies a range of `^x.y.z` and `>=x.y.z` alternatives. */
function satisfies(range: string, version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  const atLeast = (x: number, y: number, z: number) =>
    major > x || (major === x && (minor > y || (minor === y && patch >= z)));
  return range.split('||').some((alternative) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (!match) throw new Error(`engines: cannot read "${alternative}"`);
    const [x, y, z] = [Number(match[2]), Number(match[3]), Number(match[4])];
    return match[1] === '^' ? major === x && atLeast(x, y, z) : atLeast(x, y, z);
  });
}

describe('Node versions', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;

  it('engines admits the README’s Node 20, the LTS lines and the image’s Node, not what the toolchain refuses', () => {
    expect(imageVersion).not.toBeNull();
    const image = imageVersion!.slice(1, 4).join('.');
    for (const version of ['20.19.0', '20.20.2', '22.12.0', '24.0.0', image]) {
      expect(satisfies(engines, version), version).toBe(true);
    }
    // Vite 8 wants 20.19+ or 22.12+; Vitest 4 refuses the odd majors; sharp wants 20.9+.
    for (const version of ['20.18.0', '21.7.0', '22.11.0', '23.1.0', '18.20.0']) {
      expect(satisfies(engines, version), version).toBe(false);
    }
    expect(read('README.md')).toContain('On a fresh machine with Node 20 and npm');
  });

  it('CI runs the unit and integration tests on the image’s Node, from npm, into an ignored scratch folder', () => {
    expect(read('scripts/test-all.mjs')).toContain("path.join(root, 'scripts/test-node-lts.mjs')");
    const node = execFileSync(
      process.execPath,
      [path.join(ROOT, 'scripts/test-node-lts.mjs'), '--print-node'],
      {
        encoding: 'utf8',
        timeout: 300_000,
      },
    )
      .trim()
      .split('\n')
      .at(-1)!;
    // A scratch folder git ignores (nothing committed), inside the checkout (readable by the
    // ordinary user process.int.test.ts starts the site as).
    expect(path.relative(ROOT, node).startsWith(`node_modules${path.sep}.cache${path.sep}`)).toBe(true);
    expect(execFileSync('git', ['check-ignore', node], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(node);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    expect(version.startsWith(`v${imageVersion![1]}.`)).toBe(true);
  }, 320_000);
});
