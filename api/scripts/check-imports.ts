/**
 * The import rule (docs/architecture.md, "Boundaries"), run by `pnpm lint`, the same on both sides:
 *
 * 1. The domains are folders of `api/src` and `web/src` with the same names: catalogue,
 *    community, commerce, selling, charities, account, staff, and on the web platform too. A
 *    domain imports another domain only through that domain's `index.ts`, its public surface.
 * 2. On the API the domains are layered, lowest first (DOMAIN_ORDER): a domain imports only
 *    domains below it, so no two domains import each other.
 * 3. The kernel imports no domain and nothing of the composition root: on the API `db/`,
 *    `http/`, `platform/` and the root's shared files (KERNEL_FILES); on the web `components/`,
 *    `kit/` and `lib/`.
 * 4. The composition root wires domains together (API: `app.ts`, `router.ts`, `jobs.ts`,
 *    `services.ts`, `seed/`, `testing/`, `rest/`… ; web: `app/`, `main.tsx`, `entry-server.tsx`).
 *    On the API it too goes through each domain's index; the web's routes import pages by path
 *    (lazy routes must, to be split), so the web's root may import any file.
 * 5. A router never imports another router file (`*.router.ts`), except a domain's own
 *    `<domain>.router.ts`, which composes its features' routers.
 * 6. No import cycles: not between files, and (2) not between the API's domains.
 * 7. The web never imports the API's runtime code: `import type` from `@reshelf/api` only.
 *
 * Tests (`*.test.ts(x)`) may reach into any file they test; rules 5 to 7 still hold for them.
 * Exits 1 and names every offending import or cycle. `--self-test` checks the rule on made-up
 * imports first, including that each rule can fail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const API = path.join(ROOT, 'api');
const API_SRC = path.join(ROOT, 'api/src');
const WEB_SRC = path.join(ROOT, 'web/src');

/** The API's domains, lowest first: each may import only the ones before it. */
export const DOMAIN_ORDER = [
  'catalogue',
  'community',
  'commerce',
  'selling',
  'charities',
  'account',
  'staff',
] as const;
/** The web's domains: the API's, and `platform` (static pages, contact, unsubscribe, flags, the dev mailbox). */
export const WEB_DOMAINS = [...DOMAIN_ORDER, 'platform'] as const;

/** The API's kernel: folders and root files every domain may use, which import no domain. */
const API_KERNEL_DIRS = ['db', 'http', 'platform'];
const KERNEL_FILES = [
  'config.ts',
  'errors.ts',
  'logger.ts',
  'paths.ts',
  'secrets.ts',
  'supabase-client.ts',
  'trpc.ts',
  'runtime.ts',
];
const WEB_KERNEL_DIRS = ['components', 'kit', 'lib', 'testing'];

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT =
  /(?:^|[\s;])(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export interface ImportRef {
  specifier: string;
  typeOnly: boolean;
}

export function importsOf(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  // Comments may quote imports (doc examples): drop them first.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const match of code.matchAll(IMPORT)) {
    const specifier = match[3] ?? match[4];
    if (specifier) refs.push({ specifier, typeOnly: Boolean(match[2]) });
  }
  return refs;
}

const isTest = (file: string) => /\.(test|spec)\.tsx?$/.test(file);

type Side = 'api' | 'web';
type Place =
  | { kind: 'domain'; side: Side; domain: string; rest: string }
  | { kind: 'kernel'; side: Side }
  | { kind: 'root'; side: Side }
  | { kind: 'outside' };

/** Where a file stands: in a domain (and the path inside it), the kernel, or the composition root. */
export function placeOf(file: string): Place {
  for (const [side, src] of [
    ['api', API_SRC],
    ['web', WEB_SRC],
  ] as const) {
    const rel = path.relative(src, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const [top = '', ...rest] = rel.split(path.sep);
    const domains: readonly string[] = side === 'api' ? DOMAIN_ORDER : WEB_DOMAINS;
    if (rest.length > 0 && domains.includes(top))
      return { kind: 'domain', side, domain: top, rest: rest.join('/') };
    const kernelDirs = side === 'api' ? API_KERNEL_DIRS : WEB_KERNEL_DIRS;
    if (rest.length > 0 && kernelDirs.includes(top)) return { kind: 'kernel', side };
    if (side === 'api' && rest.length === 0 && KERNEL_FILES.includes(top)) return { kind: 'kernel', side };
    return { kind: 'root', side };
  }
  return { kind: 'outside' };
}

const resolveTarget = (file: string, specifier: string) => path.resolve(path.dirname(file), specifier);

/** Checks one file's imports (paths absolute). */
export function check(file: string, refs: ImportRef[]): Violation[] {
  const out: Violation[] = [];
  const rel = path.relative(ROOT, file);
  const from = placeOf(file);
  const test = isTest(file);
  for (const { specifier, typeOnly } of refs) {
    const add = (rule: string) => out.push({ file: rel, specifier, rule });
    if (from.kind !== 'outside' && from.side === 'web') {
      const target = specifier.startsWith('.') ? resolveTarget(file, specifier) : null;
      const intoApi =
        specifier === '@reshelf/api' ||
        specifier.startsWith('@reshelf/api/') ||
        (target !== null && !path.relative(API, target).startsWith('..'));
      if (intoApi) {
        if (!typeOnly) add('the web imports only types from the API (`import type`)');
        continue;
      }
    }
    if (!specifier.startsWith('.')) continue;
    const target = resolveTarget(file, specifier);
    const to = placeOf(target);
    const fileName = path.basename(file);
    if (
      fileName.endsWith('.router.ts') &&
      target.endsWith('.router.ts') &&
      target !== file &&
      !(
        from.kind === 'domain' &&
        fileName === `${from.domain}.router.ts` &&
        to.kind === 'domain' &&
        to.domain === from.domain
      ) &&
      !(rel === path.join('api', 'src', 'platform', 'platform.router.ts'))
    )
      add('a router never imports another router (a domain composes its own in <domain>.router.ts)');
    if (test || from.kind === 'outside' || to.kind === 'outside' || from.side !== to.side) continue;
    if (from.kind === 'kernel') {
      if (to.kind === 'domain') add(`the kernel imports no domain (${to.domain})`);
      else if (to.kind === 'root') add('the kernel imports nothing of the composition root');
      continue;
    }
    if (to.kind !== 'domain') {
      if (from.kind === 'domain' && to.kind === 'root')
        add('a domain imports nothing of the composition root');
      continue;
    }
    if (from.kind === 'domain' && from.domain === to.domain) continue;
    if (from.kind === 'root' && from.side === 'web') continue;
    if (to.rest !== 'index.ts')
      add(`another domain is imported only through its index: ${to.side}/src/${to.domain}/index.ts`);
    if (from.kind === 'domain' && from.side === 'api') {
      const order: readonly string[] = DOMAIN_ORDER;
      if (order.indexOf(to.domain) > order.indexOf(from.domain))
        add(
          `${from.domain} may import only the domains below it (${DOMAIN_ORDER.join(' < ')}), not ${to.domain}`,
        );
    }
  }
  return out;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The files that import each other in a loop (strongly connected components of two or more, or a file importing itself). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    // Iterative Tarjan: the import graph is deep enough to overflow a recursive one.
    const work: [string, number][] = [[node, 0]];
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    while (work.length > 0) {
      const frame = work[work.length - 1] as [string, number];
      const [current, next] = frame;
      const edges = graph.get(current) ?? [];
      if (next < edges.length) {
        frame[1] = next + 1;
        const target = edges[next] as string;
        if (!indices.has(target)) {
          indices.set(target, index);
          low.set(target, index++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) {
          low.set(current, Math.min(low.get(current) as number, indices.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0]) as number, low.get(current) as number));
      if (low.get(current) === indices.get(current)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== current);
        if (component.length > 1 || (graph.get(current) ?? []).includes(current))
          found.push(component.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

export function checkTree(): Violation[] {
  const violations: Violation[] = [];
  const graph = new Map<string, string[]>();
  for (const dir of [API_SRC, WEB_SRC])
    for (const file of sourceFiles(dir)) {
      const refs = importsOf(fs.readFileSync(file, 'utf8'));
      violations.push(...check(file, refs));
      if (isTest(file)) continue;
      graph.set(
        path.relative(ROOT, file),
        refs
          .filter((ref) => ref.specifier.startsWith('.'))
          .map((ref) => path.relative(ROOT, resolveTarget(file, ref.specifier))),
      );
    }
  for (const component of cycles(graph))
    violations.push({
      file: component[0] as string,
      specifier: component.join(' -> '),
      rule: 'these files import each other in a loop',
    });
  return violations;
}

function selfTest(): void {
  const f = (p: string) => path.join(ROOT, p);
  const cases: [string, string, boolean][] = [
    // Routers.
    ["import { x } from '../orders/orders.router.ts';", 'api/src/commerce/offers/offers.router.ts', false],
    ["import { x } from './orders/orders.router.ts';", 'api/src/commerce/commerce.router.ts', true],
    [
      "import { x } from '../catalogue/listings/listings.router.ts';",
      'api/src/commerce/commerce.router.ts',
      false,
    ],
    ["import { x } from '../orders/orders.service.ts';", 'api/src/commerce/offers/offers.router.ts', true],
    // Inside a domain: anything; another domain: its index, and only a lower one.
    ["import { x } from '../orders/lock.ts';", 'api/src/commerce/offers/offers.service.ts', true],
    ["import { x } from '../../catalogue/index.ts';", 'api/src/commerce/basket/basket.service.ts', true],
    [
      "import { x } from '../../catalogue/listings/listings.service.ts';",
      'api/src/commerce/basket/basket.service.ts',
      false,
    ],
    ["import { x } from '../../commerce/index.ts';", 'api/src/catalogue/listings/listings.service.ts', false],
    ["import { x } from '../../commerce/orders/orders.service.ts';", 'api/src/commerce/x.int.test.ts', true],
    ["import { x } from '../../commerce/orders/lock.ts';", 'api/src/catalogue/listings/x.int.test.ts', true],
    // The kernel.
    ["import { x } from '../../commerce/index.ts';", 'api/src/platform/x/y.ts', false],
    ["import { x } from '../jobs.ts';", 'api/src/http/x.ts', false],
    ["import { x } from './platform/audit/audit.service.ts';", 'api/src/trpc.ts', true],
    ["import { x } from '../../jobs.ts';", 'api/src/commerce/orders/orders.service.ts', false],
    // The composition root.
    ["import { x } from './commerce/index.ts';", 'api/src/app.ts', true],
    ["import { x } from './commerce/orders/lock.ts';", 'api/src/app.ts', false],
    ["import { x } from '../commerce/orders/lock.ts';", 'web/src/app/router.tsx', true],
    // The web.
    ["import { x } from '../../catalogue/index.ts';", 'web/src/commerce/basket/BasketPage.tsx', true],
    [
      "import { x } from '../../catalogue/listings/ListingCard.tsx';",
      'web/src/commerce/basket/BasketPage.tsx',
      false,
    ],
    ["import { x } from '../commerce/index.ts';", 'web/src/components/Thing.tsx', false],
    ["import type { AppRouter } from '@reshelf/api/router';", 'web/src/lib/trpc.ts', true],
    ["import { appRouter } from '@reshelf/api/router';", 'web/src/lib/trpc.ts', false],
    ["import { x } from '../../../../api/src/errors.ts';", 'web/src/commerce/a/b.ts', false],
  ];
  let failed = 0;
  for (const [source, file, ok] of cases) {
    const passed = check(f(file), importsOf(source)).length === 0;
    if (passed !== ok) {
      failed++;
      console.error(`self-test: ${file}: ${source} should ${ok ? 'pass' : 'fail'}`);
    }
  }
  const loop = cycles(
    new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]),
  );
  if (loop.length !== 1 || loop[0]?.join() !== 'a,b,c') {
    failed++;
    console.error(`self-test: the cycle a -> b -> c -> a was found as ${JSON.stringify(loop)}`);
  }
  if (cycles(new Map([['a', ['b']]])).length !== 0) {
    failed++;
    console.error('self-test: a -> b is no cycle');
  }
  if (failed) process.exit(1);
  console.info(`check-imports self-test: ${cases.length + 2} cases`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--self-test')) selfTest();
  const violations = checkTree();
  for (const v of violations) console.error(`${v.file}: '${v.specifier}': ${v.rule}`);
  if (violations.length) {
    console.error(`check-imports: ${violations.length} import(s) break the boundaries`);
    process.exit(1);
  }
  console.info('check-imports: ok');
}
