/**
 * One fact, one place, for money (decision 0051), run by `pnpm lint`: outside the money module
 * nothing does arithmetic on an amount. An amount is a `_minor` column (in SQL, also inside the
 * TypeScript that builds it) or a `…Minor` field; arithmetic is `+ - * / %` beside one, or a
 * `sum(…)`/`avg(…)` over one, or a `.reduce(` that adds them up.
 *
 * Allowed to: api/src/commerce/money/** (the money definitions' TypeScript side, and the code that
 * moves money: refunds, earnings, the ledger), api/src/commerce/pricing/** (quotes),
 * packages/contracts/src/money.ts (the shared rules: the fee, VAT, percentages, apportioning,
 * formatting), the migrations (the SQL definitions themselves; not scanned), and tests (they check
 * the figures). A line that must be let through says why in a comment with `money-ok:`, on it or
 * in a comment line just above it.
 *
 * Exits 1 and names every line. `--self-test` first checks the rule on made-up lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['api/src', 'web/src', 'packages/contracts/src'];
const ALLOWED = [
  'api/src/commerce/money/',
  'api/src/commerce/pricing/',
  'packages/contracts/src/money.ts',
  'packages/contracts/src/pricing.ts',
  'api/src/db/database.generated.ts',
];

const AMOUNT = String.raw`[A-Za-z_$][\w$]*(?:_minor|Minor)\b`;
/** An amount beside an arithmetic operator (not `=>`, `+=`-style assignments are caught too). */
const BESIDE = new RegExp(
  String.raw`(?:${AMOUNT}\)?\s*(?:[-+*/%](?![-+=>/*])|\+=|-=))|(?:(?<![-+=<>!/*])[-+*/%]=?\s*\(?\s*(?:[\w$]+\.|[\w$]+\?\.)*${AMOUNT})`,
);
const AGGREGATE = new RegExp(String.raw`\b(?:sum|avg)\s*\([^)]*${AMOUNT}`, 'i');
const REDUCE = new RegExp(String.raw`\.reduce\([^)]*${AMOUNT}`);

export interface Finding {
  file: string;
  line: number;
  text: string;
}

/** Comments out, strings' insides blanked (but not template literals: SQL lives in them). */
function codeOf(line: string): string {
  return line
    .replace(/\/\/.*$/, '')
    .replace(/'(?:[^'\\]|\\.)*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

export function findingsIn(source: string, file = 'x.ts'): Finding[] {
  const out: Finding[] = [];
  const text = source.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '));
  const original = source.split('\n');
  const flagged = text.split('\n').map((raw) => {
    const line = codeOf(raw);
    return BESIDE.test(line) || AGGREGATE.test(line) || REDUCE.test(line);
  });
  const escapes = (index: number) => (original[index] ?? '').includes('money-ok:');
  // A comment's escape also covers the line below it (for lines a comment would break).
  const aboveEscapes = (index: number) => /(?:\/\/|--).*money-ok:/.test(original[index - 1] ?? '');
  for (const [index, hit] of flagged.entries()) {
    const at = { file, line: index + 1, text: (original[index] ?? '').trim() };
    if (hit && !escapes(index) && !aboveEscapes(index)) out.push(at);
    // An escape that excuses nothing is stale: the arithmetic it excused has gone.
    if (escapes(index) && !hit && !(aboveEscapes(index + 1) && flagged[index + 1]))
      out.push({ ...at, text: `a money-ok: that excuses nothing: ${at.text}` });
  }
  return out;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('dist') || entry.name.startsWith('.'))
      continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (
      /\.(ts|tsx)$/.test(entry.name) &&
      !/\.(test|spec)\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts')
    )
      yield full;
  }
}

export function checkTree(): { findings: Finding[]; scanned: number } {
  const findings: Finding[] = [];
  const used = new Set<string>();
  let scanned = 0;
  for (const dir of SCANNED)
    for (const file of sourceFiles(path.join(ROOT, dir))) {
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      const allowed = ALLOWED.find(
        (entry) => rel === entry || (entry.endsWith('/') && rel.startsWith(entry)),
      );
      if (allowed) {
        used.add(allowed);
        continue;
      }
      scanned++;
      findings.push(...findingsIn(fs.readFileSync(file, 'utf8'), rel));
    }
  // Every exemption names something that is there: a renamed folder must not leave a dead one.
  for (const entry of ALLOWED.filter((entry) => !used.has(entry)))
    findings.push({ file: entry, line: 0, text: 'an allowed path that matches no file' });
  return { findings, scanned };
}

function selfTest(): void {
  const cases: [string, boolean][] = [
    ['const paid = row.price_minor - row.bundle_discount_minor;', true],
    ['const left = data.totalMinor - data.refundedMinor;', true],
    ['total += item.amountMinor;', true],
    ['select coalesce(sum(p.amount_minor), 0) from public.payouts p', true],
    ['  i.price_minor - i.bundle_discount_minor as item_minor,', true],
    ['const total = items.reduce((sum, item) => sum + item.priceMinor, 0);', true],
    ['pounds: m.proceedsMinor / 100,', true],
    ['{formatPence(-account.balanceMinor)}', true],
    ['const price = row.price_minor;', false],
    ["select p.amount_minor, p.reversed_minor from public.payouts p where p.status = 'held'", false],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of TypeScript, quoted.
    ['const label = `${formatPence(item.priceMinor)} each`;', false],
    ['expect(x.totalMinor).toBe(1200);', false],
    ['const paid = row.price_minor - row.x_minor; // money-ok: a made-up exception', false],
    ["className='text-ink-muted -minor'", false],
    [
      '// money-ok: a made-up exception on the line above\nconst paid = row.price_minor - row.x_minor;',
      false,
    ],
    ['// a comment without the escape\nconst paid = row.price_minor - row.x_minor;', true],
    ['const price = row.price_minor; // money-ok: excuses nothing', true],
    ['const ok = (item) => item.priceMinor > 0 && item.count >= 1;', false],
  ];
  let failed = 0;
  for (const [line, flagged] of cases) {
    if (findingsIn(line).length > 0 !== flagged) {
      failed++;
      console.error(`self-test: ${line} should ${flagged ? 'be' : 'not be'} flagged`);
    }
  }
  if (failed) process.exit(1);
  console.info(`check-money self-test: ${cases.length} cases`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--self-test')) selfTest();
  const { findings, scanned } = checkTree();
  if (scanned === 0) {
    console.error('check-money: no files scanned');
    process.exit(1);
  }
  for (const f of findings)
    console.error(`${f.file}:${f.line}: arithmetic on an amount outside the money module: ${f.text}`);
  if (findings.length) {
    console.error(
      `check-money: ${findings.length} line(s) compute money outside api/src/commerce/money (decision 0051)`,
    );
    process.exit(1);
  }
  console.info(`check-money: ok (${scanned} files)`);
}
