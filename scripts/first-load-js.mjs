#!/usr/bin/env node
// The JavaScript a first visit to a route loads before the page can show ("home route
// first-load JS, gzip"), from a Vite build manifest: the entry chunk and everything it imports
// statically, plus the route's lazy page chunk and its static imports. gzip at zlib's default
// level, as Vite's own report.
//   node scripts/first-load-js.mjs <dist with .vite/manifest.json> [page module, default the home page]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'web/dist');
const page = process.argv[3] ?? 'src/catalogue/discovery/home/HomePage.tsx';
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('the manifest has no entry');
if (!manifest[page]) throw new Error(`the manifest has no ${page}`);

function closure(key, into = new Set()) {
  if (into.has(key)) return into;
  into.add(key);
  for (const next of manifest[key].imports ?? []) closure(next, into);
  return into;
}

function size(keys) {
  let raw = 0;
  let gzip = 0;
  const files = [];
  for (const key of keys) {
    const file = manifest[key].file;
    if (!file.endsWith('.js')) continue;
    const bytes = readFileSync(path.join(dist, file));
    const gz = gzipSync(bytes).length;
    raw += bytes.length;
    gzip += gz;
    files.push({ file, kib: +(gz / 1024).toFixed(1) });
  }
  return { raw, gzip, files: files.sort((a, b) => b.kib - a.kib) };
}

const entry = closure(entryKey);
const withPage = closure(page, new Set(entry));
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const entryOnly = size(entry);
const first = size(withPage);
console.info(`entry chunk and its static imports: ${kib(entryOnly.gzip)} gzip (${kib(entryOnly.raw)} raw)`);
console.info(`first load of ${page}: ${kib(first.gzip)} gzip (${kib(first.raw)} raw)`);
for (const { file, kib: k } of first.files) console.info(`  ${k.toFixed(1).padStart(7)} KiB  ${file}`);
