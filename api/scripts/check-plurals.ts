/**
 * No hand-made plurals, run by `pnpm lint`: words that change with a count go through
 * `plural` / `countOf` in packages/contracts/src/plural.ts (Intl.PluralRules, en-GB), never
 * through a ternary of our own. In `web/src`, `api/src` and `packages/contracts/src` (tests
 * aside) it refuses:
 *
 * 1. a choice between two pieces of text, one the other's plural: `n === 1 ? 'book' : 'books'`,
 *    `n === 1 ? '' : 's'`, `n === 1 ? 'One book' : \`${n} books\``, `one ? 'is' : 'are'`;
 * 2. a count compared with one choosing between two names (a helper of its own):
 *    `count === 1 ? one : many`;
 * 3. "(s)" after a word in text: `'book(s)'`.
 *
 * A choice that is not about a count (a bundle, a protocol's name) is excused by a comment
 * `// check-plurals: <why>` on its line or the line above; an excuse that excuses nothing fails.
 *
 * Each file is compiled to plain JavaScript with esbuild first (types, JSX and comments gone), so
 * the ternaries are read as code, not as text that looks like code. Exits 1 and names each one.
 * `--self-test` first plants one of each in made-up code and proves each is found, and that
 * ternaries which are not plurals pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TREES = ['web/src', 'api/src', 'packages/contracts/src'];

/** A string literal (its text), a template (its text parts and the tokens of each `${…}`), or code. */
type Token = { at: number; raw: string } & (
  | { kind: 'text'; text: string }
  | { kind: 'template'; parts: string[]; exprs: Token[][] }
  | { kind: 'name' | 'number' | 'punct' }
);

const NAME = /[A-Za-z_$\d\u0080-\uFFFF]/;
const PUNCTS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '**',
];
const REGEX_AFTER_NAME = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/** Tokens of plain JavaScript from `start` until the end, or until an unmatched `}` (a template's `${…}`). */
function tokenize(code: string, start = 0): { tokens: Token[]; end: number } {
  const tokens: Token[] = [];
  let i = start;
  let depth = 0;
  const regexMayStart = () => {
    const last = tokens.at(-1);
    if (!last) return true;
    if (last.kind === 'punct') return ![')', ']', '}'].includes(last.raw);
    return last.kind === 'name' && REGEX_AFTER_NAME.has(last.raw);
  };
  while (i < code.length) {
    const c = code[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (code.startsWith('//', i)) {
      const next = code.indexOf('\n', i);
      i = next < 0 ? code.length : next;
    } else if (code.startsWith('/*', i)) {
      const next = code.indexOf('*/', i + 2);
      i = next < 0 ? code.length : next + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (j < code.length && code[j] !== c) {
        if (code[j] === '\\') {
          text += code[j + 1];
          j += 2;
        } else {
          text += code[j];
          j++;
        }
      }
      tokens.push({ kind: 'text', text, at: i, raw: code.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '`') {
      const parts: string[] = [];
      const exprs: Token[][] = [];
      let j = i + 1;
      let part = '';
      while (j < code.length && code[j] !== '`') {
        if (code[j] === '\\') {
          part += code[j + 1];
          j += 2;
        } else if (code.startsWith('${', j)) {
          parts.push(part);
          part = '';
          const inner = tokenize(code, j + 2);
          exprs.push(inner.tokens);
          j = inner.end + 1;
        } else {
          part += code[j];
          j++;
        }
      }
      parts.push(part);
      tokens.push({ kind: 'template', parts, exprs, at: i, raw: code.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '/' && regexMayStart()) {
      let j = i + 1;
      let inClass = false;
      while (j < code.length && (code[j] !== '/' || inClass)) {
        if (code[j] === '\\') j++;
        else if (code[j] === '[') inClass = true;
        else if (code[j] === ']') inClass = false;
        j++;
      }
      j++;
      while (j < code.length && /[a-z]/.test(code[j] as string)) j++;
      tokens.push({ kind: 'punct', at: i, raw: code.slice(i, j) });
      i = j;
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(code[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < code.length && /[\w.]/.test(code[j] as string)) j++;
      tokens.push({ kind: 'number', at: i, raw: code.slice(i, j) });
      i = j;
    } else if (NAME.test(c) || c === '#') {
      let j = i + 1;
      while (j < code.length && NAME.test(code[j] as string)) j++;
      tokens.push({ kind: 'name', at: i, raw: code.slice(i, j) });
      i = j;
    } else {
      if (c === '{') depth++;
      if (c === '}') {
        if (depth === 0) return { tokens, end: i };
        depth--;
      }
      const punct = PUNCTS.find((p) => code.startsWith(p, i)) ?? c;
      tokens.push({ kind: 'punct', at: i, raw: punct });
      i += punct.length;
    }
  }
  return { tokens, end: i };
}

/** The words of a piece of text, lower case; a template's `${…}` counts as no word. */
function words(token: Token): string[] {
  const text = token.kind === 'text' ? token.text : token.kind === 'template' ? token.parts.join(' ') : '';
  return text.toLowerCase().match(/[a-z]+/g) ?? [];
}

const IRREGULAR: [string, string][] = [
  ['is', 'are'],
  ['was', 'were'],
  ['has', 'have'],
  ['does', 'do'],
  ['it', 'them'],
  ['its', 'their'],
  ['this', 'these'],
  ['that', 'those'],
  ['person', 'people'],
  ['child', 'children'],
];

/** One word is the other's plural (or the other's verb for a plural subject: "needs", "need"). */
function pluralPair(a: string, b: string): boolean {
  const grows = (one: string, many: string) =>
    many === `${one}s` || many === `${one}es` || (one.endsWith('y') && many === `${one.slice(0, -1)}ies`);
  return (
    grows(a, b) ||
    grows(b, a) ||
    IRREGULAR.some(([one, many]) => (a === one && b === many) || (a === many && b === one))
  );
}

const isText = (token: Token | undefined): token is Token =>
  token?.kind === 'text' || token?.kind === 'template';

function textOf(token: Token): string {
  return token.kind === 'text' ? token.text : token.kind === 'template' ? token.parts.join('') : '';
}

/**
 * Two pieces of text, one the other's plural: '' and 's'; or every word that differs pairs with
 * its plural ("The book is", "The books are"); or, when the test counts (`n === 1`), any word
 * does ("You have an unread message", "You have 3 unread messages").
 */
function pluralTexts(a: Token, b: Token, counting: boolean): boolean {
  const [x, y] = [textOf(a).trim(), textOf(b).trim()];
  if ((x === '' && /^(s|es)$/.test(y)) || (y === '' && /^(s|es)$/.test(x))) return true;
  const [left, right] = [words(a), words(b)];
  const onlyLeft = left.filter((w) => !right.includes(w));
  const onlyRight = right.filter((w) => !left.includes(w));
  const paired = (w: string, others: string[]) => others.some((o) => pluralPair(w, o));
  if (!onlyLeft.some((w) => paired(w, onlyRight))) return false;
  return (
    counting || (onlyLeft.every((w) => paired(w, onlyRight)) && onlyRight.every((w) => paired(w, onlyLeft)))
  );
}

/** The test before a `?` at `at` compares something with one: `n === 1`, `1 !== n`, `n > 1`, `n < 2`. */
function comparesWithOne(tokens: Token[], at: number): boolean {
  const [a, b] = [tokens[at - 2], tokens[at - 1]];
  return (
    a?.kind === 'punct' &&
    b?.kind === 'number' &&
    ((['===', '!==', '==', '!=', '>', '<='].includes(a.raw) && b.raw === '1') ||
      (['<', '>='].includes(a.raw) && b.raw === '2'))
  );
}

export interface Finding {
  file: string;
  line: number;
  code: string;
  rule: string;
}

/** The hand-made plurals in a list of tokens and every template inside it. */
type Found = { at: number; code: string; rule: string };

function findIn(tokens: Token[], found: Found[]): void {
  tokens.forEach((token, at) => {
    if (token.kind === 'template') for (const expr of token.exprs) findIn(expr, found);
    if (isText(token) && /[a-z]\((s|es)\)/i.test(textOf(token))) {
      found.push({ at: token.at, code: token.raw, rule: '"(s)" after a word: use countOf() or plural()' });
    }
    if (token.kind !== 'punct' || token.raw !== '?') return;
    const [yes, colon, no] = [tokens[at + 1], tokens[at + 2], tokens[at + 3]];
    if (colon?.raw !== ':' || !yes || !no) return;
    const code = `? ${yes.raw} : ${no.raw}`;
    if (isText(yes) && isText(no) && pluralTexts(yes, no, comparesWithOne(tokens, at))) {
      found.push({
        at: token.at,
        code,
        rule: 'a hand-made plural: use plural() or countOf() from @reshelf/contracts',
      });
    } else if (yes.kind === 'name' && no.kind === 'name' && comparesWithOne(tokens, at)) {
      found.push({
        at: token.at,
        code,
        rule: 'a plural helper of its own: use plural() or countOf() from @reshelf/contracts',
      });
    }
  });
}

/** The hand-made plurals in one source file (TypeScript or TSX). */
export function findPlurals(source: string, file: string): Finding[] {
  const { code, map } = transformSync(source, {
    loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
    jsx: 'automatic',
    legalComments: 'none',
    format: 'esm',
    sourcemap: 'external',
    sourcefile: file,
  });
  const found: Found[] = [];
  findIn(tokenize(code).tokens, found);
  const lines = sourceLines(map);
  const located = found.map(({ at, ...f }) => {
    const before = code.slice(0, at).split('\n');
    return { ...f, file, line: lines(before.length - 1, (before.at(-1) ?? '').length) };
  });
  // A choice that is not about a count is excused by `// check-plurals: why` on its line or the
  // line above; an excuse that excuses nothing is itself a finding, so none outlives its code.
  const sourceText = source.split('\n');
  const excuses = new Set(sourceText.flatMap((text, index) => (EXCUSE.test(text) ? [index + 1] : [])));
  const used = new Set<number>();
  const findings = located.filter((f) => {
    const excuse = [f.line, f.line - 1].find((line) => excuses.has(line));
    if (excuse) used.add(excuse);
    return !excuse;
  });
  for (const line of excuses) {
    if (!used.has(line)) {
      findings.push({
        file,
        line,
        code: (sourceText[line - 1] ?? '').trim(),
        rule: 'this excuse excuses no plural: remove it',
      });
    }
  }
  return findings;
}

/** `// check-plurals: ` and a reason. */
const EXCUSE = /\/\/ check-plurals: \S/;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** From a source map: the source line (from 1) of a place in the generated code (line and column from 0). */
function sourceLines(mapJson: string): (line: number, column: number) => number {
  const mappings: string = JSON.parse(mapJson).mappings;
  const segments: [number, number][][] = [];
  let sourceLine = 0;
  for (const lineText of mappings.split(';')) {
    let column = 0;
    const row: [number, number][] = [];
    for (const segment of lineText.split(',').filter(Boolean)) {
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >> 1) : value >> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0] ?? 0;
      if (values.length >= 4) sourceLine += values[2] ?? 0;
      row.push([column, sourceLine]);
    }
    segments.push(row);
  }
  return (line, column) => {
    for (let l = line; l >= 0; l--) {
      const row = segments[l] ?? [];
      const hit = l === line ? row.filter(([c]) => c <= column).at(-1) : row.at(-1);
      if (hit) return hit[1] + 1;
    }
    return 1;
  };
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !/\.generated\.ts$/.test(entry.name)
      ? [full]
      : [];
  });
}

export function checkTree(): { files: number; findings: Finding[] } {
  const files = TREES.flatMap((tree) => sourceFiles(path.join(ROOT, tree)));
  const findings = files.flatMap((file) =>
    findPlurals(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file)),
  );
  return { files: files.length, findings };
}

function selfTest(): void {
  const cases: [string, string, number][] = [
    ["export const a = (n: number) => `${n} ${n === 1 ? 'book' : 'books'}`;", 'a.ts', 1],
    ["export const a = (n: number) => `${n} rule${n === 1 ? '' : 's'} violated`;", 'a.ts', 1],
    ["export const a = (n: number) => (n !== 1 ? 's' : '');", 'a.ts', 1],
    ["export const a = (n: number) => (n === 1 ? 'One book' : `${n} books`);", 'a.ts', 1],
    ["export const a = (n: number) => `${n} ${n > 1 ? 'copies' : 'copy'}`;", 'a.ts', 1],
    ["export const a = (one: boolean) => `we will put ${one ? 'it' : 'them'} back`;", 'a.ts', 1],
    ["export const a = (n: number) => `${n} ${n === 1 ? 'row needs' : 'rows need'} correcting`;", 'a.ts', 1],
    [
      'function plural(count: number, one: string, many: string) { return `${count} ${count === 1 ? one : many}`; }',
      'a.ts',
      1,
    ],
    ["export const a = '{{count}} new book(s) today';", 'a.ts', 1],
    [
      "export const A = ({ n }: { n: number }) => <p title=\"don't / stop\">{n} {n === 1 ? 'book' : 'books'}</p>;",
      'a.tsx',
      1,
    ],
    ['export const a = (t: string) => t.replace(/[\'"`]/g, "") + `${1 === 1 ? "x" : "xs"}`;', 'a.ts', 1],
    // Not plurals.
    ["export const a = (n: number) => (n === 1 ? 'top-[20%]' : 'top-[8%]');", 'a.ts', 0],
    ['export const a = (n: number) => (n === 1 ? `${n} offered` : `${n} countered with`);', 'a.ts', 0],
    ['export const a = (n: number) => (n === 1 ? once : times);', 'a.ts', 1],
    ['export const a = (ok: boolean) => (ok ? first : second);', 'a.ts', 0],
    ["// n === 1 ? 'book' : 'books'\nexport const a = 1;", 'a.ts', 0],
    ["export const a = (n: number) => countOf(n, 'book', 'books');", 'a.ts', 0],
    ["export const a = (tls: boolean) => (tls ? 'smtps' : 'smtp');", 'a.ts', 1],
    // Excuses: one that excuses a choice, one on the line above, one that excuses nothing.
    ["export const a = (tls: boolean) => (tls ? 'smtps' : 'smtp'); // check-plurals: a protocol", 'a.ts', 0],
    [
      "// check-plurals: a bundle is two or more\nexport const a = (b: boolean) => (b ? 'The books are' : 'The book is');",
      'a.ts',
      0,
    ],
    ['// check-plurals: nothing here\nexport const a = 1;', 'a.ts', 1],
  ];
  let failed = 0;
  for (const [source, file, expected] of cases) {
    const found = findPlurals(source, file);
    if (found.length !== expected) {
      failed++;
      console.error(`self-test: ${source} should give ${expected}, gave ${JSON.stringify(found)}`);
    }
  }
  if (failed) process.exit(1);
  console.info(`check-plurals self-test: ${cases.length} cases`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--self-test')) selfTest();
  const { files, findings } = checkTree();
  for (const f of findings) console.error(`${f.file}:${f.line}: ${f.code}: ${f.rule}`);
  if (findings.length) {
    console.error(`check-plurals: ${findings.length} hand-made plurals in ${files} files`);
    process.exit(1);
  }
  console.info(`check-plurals: ok (${files} files)`);
}
