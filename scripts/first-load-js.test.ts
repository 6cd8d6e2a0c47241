/**
 * The first-load budget the web's build holds (scripts/first-load-js.mjs, run by
 * web/vite.config.ts): it measures a build from its manifest, and says what is over.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOME_PAGE, MAX_MODULEPRELOADS, measure, modulepreloads, overBudget } from './first-load-js.mjs';

const dists: string[] = [];
afterEach(() => {
  for (const dist of dists.splice(0)) rmSync(dist, { recursive: true, force: true });
});

/** A build: an entry importing a shared chunk, the home page lazy, and `preloads` links in its HTML. */
function build({ preloads, homeBytes }: { preloads: number; homeBytes: number }): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'first-load-'));
  dists.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  // Random bytes do not compress: gzip is about their own size.
  const write = (file: string, bytes: number) =>
    writeFileSync(path.join(dist, file), randomBytes(bytes).toString('base64').slice(0, bytes));
  write('assets/index.js', 1024);
  write('assets/shared.js', 1024);
  write('assets/home.js', homeBytes);
  write('assets/admin.js', 50 * 1024);
  const manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'] },
    '_shared.js': { file: 'assets/shared.js' },
    [HOME_PAGE]: { file: 'assets/home.js', imports: ['_shared.js'] },
    'src/staff/AdminPage.tsx': { file: 'assets/admin.js' },
  };
  writeFileSync(path.join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  const links = Array.from(
    { length: preloads },
    (_, n) => `<link rel="modulepreload" crossorigin href="/assets/c${n}.js">`,
  );
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><head>${links.join('')}</head><body></body>`);
  return dist;
}

describe('the first-load budget', () => {
  it('measures the entry, its imports and the home page, not the lazy pages it does not load', () => {
    const { entry, first } = measure(build({ preloads: 2, homeBytes: 4096 }));
    expect(entry.files.map((file) => file.file).sort()).toEqual(['assets/index.js', 'assets/shared.js']);
    expect(first.files.map((file) => file.file).sort()).toEqual([
      'assets/home.js',
      'assets/index.js',
      'assets/shared.js',
    ]);
    expect(first.raw).toBe(1024 + 1024 + 4096);
  });

  it('passes a build within it', () => {
    expect(overBudget(build({ preloads: MAX_MODULEPRELOADS, homeBytes: 4096 }), { budgetKib: 10 })).toEqual(
      [],
    );
  });

  it('fails a build whose index.html lists more modulepreloads than the limit', () => {
    const dist = build({ preloads: MAX_MODULEPRELOADS + 1, homeBytes: 4096 });
    expect(modulepreloads(dist)).toHaveLength(MAX_MODULEPRELOADS + 1);
    expect(overBudget(dist, { budgetKib: 10 })).toEqual([
      `index.html lists ${MAX_MODULEPRELOADS + 1} modulepreload links, more than ${MAX_MODULEPRELOADS}`,
    ]);
  });

  it('fails a build whose home page first load is over the budget', () => {
    const problems = overBudget(build({ preloads: 1, homeBytes: 12 * 1024 }), { budgetKib: 10 });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^the first load of .*HomePage\.tsx is 1\d\.\d KiB gzip, over the budget of 10 KiB$/,
    );
  });
});
